"""The demo's mail backend: the console's, with every text part printed as plain 8-bit text.
Django's console backend prints the message as it would be sent, and a long line (a link)
goes quoted-printable: cut with an ``=`` at the break, which a link copied from the terminal
keeps. Here the text reads, and copies, as written."""

from email.message import EmailMessage as MimeMessage

from django.core.mail import EmailMessage
from django.core.mail.backends import console


def as_plain_text(message: EmailMessage) -> str:
    """The message with its text parts in 8-bit UTF-8, as the console shows it."""
    mime = message.message()
    for part in mime.walk():
        if (
            isinstance(part, MimeMessage)
            and part.get_content_maintype() == "text"
            and not part.is_attachment()
        ):
            text = part.get_content()
            part.set_content(text, subtype=part.get_content_subtype(), cte="8bit")
    return mime.as_bytes().decode("utf-8", errors="replace")


class ConsoleEmailBackend(console.EmailBackend):
    def write_message(self, message: EmailMessage) -> None:
        self.stream.write(f"{as_plain_text(message)}\n{'-' * 79}\n")
