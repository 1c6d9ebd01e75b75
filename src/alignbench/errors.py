"""One exception type for every problem a user can fix, so the CLI can print it without a traceback."""


class AlignbenchError(Exception):
    """A user-facing error: its message names the file, row or field and says what to do."""


class CheckFailed(AlignbenchError):
    """Checks ran and found problems (exit 1), as opposed to a usage or input error (exit 2)."""


# The exit-code contract of every command and stage (docs/CONTRACTS.md, "Exit codes").
EXIT_OK = 0
EXIT_CHECKS_FAILED = 1  # also: `compare` found differences
EXIT_USAGE = 2  # usage or input error; argparse uses 2 as well


EXIT_STATUS_HELP = (
    "exit status:\n"
    "  0  ok\n"
    "  1  differences found (compare) or checks failed (label check, label_check, score)\n"
    "  2  usage or input error (bad arguments, unreadable or invalid input files)"
)


def exit_code(error: AlignbenchError) -> int:
    """1 when checks ran and failed, 2 for every other user-fixable error."""
    return EXIT_CHECKS_FAILED if isinstance(error, CheckFailed) else EXIT_USAGE
