"""Input errors: one line naming what is wrong and where."""


MAX_MESSAGE = 1000  # characters


class InputError(ValueError):
    """Bad input: a check file, layout, view, opcode or symbol that cannot be read.

    ``where`` names the place (file, tensor, apply, key) and ``message`` the problem; ``line`` is
    the check file's line of that place when it could be found (``file`` names the file), printed
    as ``FILE:LINE: place: message``.
    """

    def __init__(self, message: str, where: str = "", line: int | None = None, file: str | None = None):
        if len(message) > MAX_MESSAGE:  # whatever the input echoed, the message stays readable
            message = f"{message[:MAX_MESSAGE - 200]} ... {message[-150:]}"
        super().__init__(message)
        self.message = message
        self.where = where
        self.line = line
        self.file = file

    def at(self, where: str) -> "InputError":
        """The same error, located more precisely (outer places come first)."""
        return InputError(self.message, f"{where}: {self.where}" if self.where else where, self.line, self.file)

    def in_file(self, path: str, line: int | None) -> "InputError":
        """The same error, in check file ``path`` at ``line`` (None: not found)."""
        e = self.at(path)
        e.file, e.line = path, line
        return e

    def __str__(self):
        if self.line is not None and self.file is not None and self.where.startswith(self.file):
            rest = self.where[len(self.file):].removeprefix(": ")
            return f"{self.file}:{self.line}: " + (f"{rest}: {self.message}" if rest else self.message)
        return f"{self.where}: {self.message}" if self.where else self.message
