"""One exception type for every problem a user can fix, so the CLI can print it without a traceback."""


class AlignbenchError(Exception):
    """A user-facing error: its message names the file, row or field and says what to do."""
