//! A sample module.

use std::fmt;

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
    y: i32,
}

pub(crate) enum Shape {
    Circle(u32),
    Square(u32),
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.x;
        write!(f, "({x}, {})", self.y)
    }
}

pub trait Area {
    fn area(&self) -> u32;
}

const LIMIT: usize = 10;
static mut COUNTER: u32 = 0;
type Pair = (u32, u32);

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub async fn fetch() {}

mod tests {
    #[test]
    fn it_works() {
        assert_eq!(2 + 2, 4);
    }
}
