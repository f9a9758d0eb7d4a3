"""Input errors: one line naming what is wrong and where."""


class InputError(ValueError):
    """Bad input: a check file, layout, view, opcode or symbol that cannot be read.

    ``where`` names the place (file, tensor, apply, key) and ``message`` the problem.
    """

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.message = message
        self.where = where

    def at(self, where: str) -> "InputError":
        """The same error, located more precisely (outer places come first)."""
        return InputError(self.message, f"{where}: {self.where}" if self.where else where)

    def __str__(self):
        return f"{self.where}: {self.message}" if self.where else self.message
