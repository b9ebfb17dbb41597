"""A sample module."""
import os

CONSTANT = 3


class Animal:
    """An animal."""

    sound = "..."

    def __init__(self, name):
        self.name = name

    @property
    def loud(self):
        return self.sound.upper()


async def fetch(url):
    return url


def outer():
    def inner():
        return 1
    return inner()
