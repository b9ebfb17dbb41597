"""Greetings, in several languages."""

GREETINGS = {"fr": "Bonjour", "de": "Grüß Gott", "ja": "こんにちは"}


def greet(lang: str) -> str:
    return GREETINGS.get(lang, "Hello")


if __name__ == "__main__":
    print(greet("ja"))
