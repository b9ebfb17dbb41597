<?php
namespace App\Models;

use Foo\Bar;

interface Shape
{
    public function area(): float;
}

abstract class Base implements Shape
{
    protected static function make(): static
    {
        return new static();
    }
}

function helper($x) {
    return $x * 2;
}
