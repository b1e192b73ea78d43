#!/usr/bin/env python3
"""Random TOML documents and Python's tomllib's verdict on each, for Chime's TOML reader
(ChimeConfig's TOMLParser; TOMLOracleTests compares the two).

  tomllib_oracle.py --cases N --seed S

Prints one line per case: the document as hex of its UTF-8 bytes, a space, and either `ERR`
(tomllib refuses it, or it holds an integer outside 64 bits, which TOML 1.0 says to refuse),
`SKIP` (a date in year 0000, which TOML allows and Python's dates cannot hold), or
the parsed document in a canonical form both sides write:

  table  {KEYHEX=VALUE,...}  keys sorted      array  [VALUE,...]
  string sHEX                                 integer i123      boolean b1 / b0
  float  f + the 16 hex digits of the IEEE 754 double (any NaN: fnan)
  dates  odtYYYY-MM-DDTHH:MM:SS.ffffff+MINUTES, ldt..., ldYYYY-MM-DD, ltHH:MM:SS.ffffff

About half the cases are documents generated valid (every kind of key, table, value and string,
comments, CRLF; some with keys of a few letters only, and some only headers and dotted keys over
the names a, b and c, so that tables are defined twice, extended and appended to, validly or
not); the rest are those with one mutation (a character deleted, inserted, replaced,
a line doubled or two lines swapped), most of which are invalid.
"""
import argparse
import datetime
import random
import re
import struct
import sys
import tomllib

INT64 = (-(1 << 63), (1 << 63) - 1)
YEAR_ZERO = re.compile(r"0000-[0-9][0-9]-[0-9][0-9]")


def canonical(value):
    if isinstance(value, dict):
        items = sorted((k.encode().hex(), canonical(v)) for k, v in value.items())
        return "{" + ",".join(f"{k}={v}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, str):
        return "s" + value.encode().hex()
    if isinstance(value, bool):
        return "b1" if value else "b0"
    if isinstance(value, int):
        if not INT64[0] <= value <= INT64[1]:
            raise OverflowError
        return f"i{value}"
    if isinstance(value, float):
        return "fnan" if value != value else "f" + struct.pack(">d", value).hex()
    if isinstance(value, datetime.datetime):
        text = (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:{value.minute:02d}:"
                f"{value.second:02d}.{value.microsecond:06d}")
        if value.tzinfo is None:
            return "ldt" + text
        return "odt" + text + f"{int(value.utcoffset().total_seconds()) // 60:+d}"
    if isinstance(value, datetime.date):
        return f"ld{value.year:04d}-{value.month:02d}-{value.day:02d}"
    if isinstance(value, datetime.time):
        return f"lt{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}"
    raise TypeError(type(value))


def verdict(document):
    # Python's dates start at year 1: tomllib refuses year 0000, which TOML allows.
    if YEAR_ZERO.search(document):
        return "SKIP"
    try:
        return canonical(tomllib.loads(document))
    except (tomllib.TOMLDecodeError, OverflowError):
        return "ERR"


class Generator:
    def __init__(self, rng):
        self.r = rng
        # Some documents draw their keys from a few letters only, so that keys, tables, dotted
        # keys and arrays of tables meet (duplicates, redefinitions, extensions).
        self.few_keys = False

    def pick(self, *choices):
        return self.r.choice(choices)

    # Keys
    def bare_key(self):
        if self.few_keys:
            return self.r.choice("abc")
        alphabet = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-_"
        return "".join(self.r.choice(alphabet) for _ in range(self.r.randint(1, 6)))

    def simple_key(self):
        n = self.r.random()
        if self.few_keys:
            return self.r.choice(["a", "b", "c", "a", "b", "\"a\"", "'b'"])
        if n < 0.7:
            return self.bare_key()
        if n < 0.85:
            return self.basic_string(single_line=True, short=True)
        return "'" + self.r.choice(["", "a b", "x.y", "é", "#", "\"q\"", self.bare_key()]) + "'"

    def key(self):
        parts = [self.simple_key() for _ in range(self.r.choice([1, 1, 1, 2, 3]))]
        return self.r.choice([".", " . ", ".\t", "."]).join(parts)

    # Strings
    def string_char(self):
        n = self.r.random()
        if n < 0.6:
            return self.r.choice("abc xyz019_-#=[]{},.:'")
        if n < 0.75:
            return self.r.choice(["é", "ß", "日本", "😀", "\t", "\u00a0", "\u2028"])
        return self.r.choice(["\\n", "\\t", "\\\\", "\\\"", "\\b", "\\f", "\\r", "\\u00e9", "\\U0001F600",
                              "\\u0000", "\\u001f", "\\U0010FFFF", "\\u007F"])

    def basic_string(self, single_line=False, short=False):
        text = "".join(self.string_char() for _ in range(self.r.randint(0, 4 if short else 12)))
        if single_line or self.r.random() < 0.6:
            return '"' + text + '"'
        body = ""
        for _ in range(self.r.randint(1, 4)):
            body += "".join(self.string_char() for _ in range(self.r.randint(0, 6)))
            body += self.r.choice(["\n", "\\\n    ", "\\  \n\n  ", '"', '""', "\n"])
        lead = self.r.choice(["", "\n"])
        tail = self.r.choice(["", '"', '""'])
        return '"""' + lead + body + tail + '"""'

    def literal_string(self):
        chars = "abc xyz\\#\"=é日\t"
        text = "".join(self.r.choice(chars) for _ in range(self.r.randint(0, 10)))
        if self.r.random() < 0.6:
            return "'" + text + "'"
        body = text + self.r.choice(["\n", "'", "''", "\n\n"]) + text
        return "'''" + self.r.choice(["", "\n"]) + body + self.r.choice(["", "'", "''"]) + "'''"

    # Numbers
    def digits(self, count, alphabet="0123456789", underscores=True):
        text = "".join(self.r.choice(alphabet) for _ in range(count))
        if underscores and len(text) > 1 and self.r.random() < 0.3:
            at = self.r.randint(1, len(text) - 1)
            text = text[:at] + "_" + text[at:]
        return text

    def dec_int(self):
        if self.r.random() < 0.2:
            return "0"
        if self.r.random() < 0.02:
            return "0" + self.digits(self.r.randint(1, 3))  # a leading zero: refused
        return self.r.choice("123456789") + self.digits(self.r.randint(0, 18))

    def integer(self):
        n = self.r.random()
        if n < 0.6:
            return self.r.choice(["", "+", "-"]) + self.dec_int()
        if n < 0.75:
            return "0x" + self.digits(self.r.randint(1, 16), "0123456789abcdefABCDEF")
        if n < 0.88:
            return "0o" + self.digits(self.r.randint(1, 21), "01234567")
        return "0b" + self.digits(self.r.randint(1, 63), "01")

    def float_(self):
        if self.r.random() < 0.12:
            return self.r.choice(["", "+", "-"]) + self.r.choice(["inf", "nan"])
        text = self.r.choice(["", "+", "-"]) + self.dec_int()
        form = self.r.choice(["frac", "exp", "both"])
        if form in ("frac", "both"):
            text += "." + self.digits(self.r.randint(1, 17))
        if form in ("exp", "both"):
            text += self.r.choice("eE") + self.r.choice(["", "+", "-"]) + self.digits(self.r.randint(1, 3))
        return text

    # Dates and times
    def date(self):
        return f"{self.r.randint(1, 9999):04d}-{self.r.randint(1, 12):02d}-{self.r.choice([self.r.randint(1, 28), self.r.randint(29, 31)]):02d}"

    def time(self):
        text = f"{self.r.randint(0, 23):02d}:{self.r.randint(0, 59):02d}:{self.r.randint(0, 59):02d}"
        if self.r.random() < 0.5:
            text += "." + "".join(self.r.choice("0123456789") for _ in range(self.r.randint(1, 12)))
        return text

    def datetime_(self):
        n = self.r.random()
        if n < 0.25:
            return self.date()
        if n < 0.4:
            return self.time()
        text = self.date() + self.r.choice("Tt ") + self.time()
        if n < 0.6:
            return text
        if self.r.random() < 0.4:
            return text + self.r.choice("Zz")
        return text + f"{self.r.choice('+-')}{self.r.randint(0, 23):02d}:{self.r.randint(0, 59):02d}"

    # Values
    def scalar(self):
        return self.r.choice([self.basic_string, self.literal_string, self.integer, self.float_,
                              self.datetime_, lambda: self.r.choice(["true", "false"])])()

    def value(self, depth=0):
        n = self.r.random()
        if depth < 3 and n < 0.12:
            return self.array(depth + 1)
        if depth < 3 and n < 0.2:
            return self.inline_table(depth + 1)
        return self.scalar()

    def array(self, depth):
        items = [self.value(depth) for _ in range(self.r.randint(0, 4))]
        if self.r.random() < 0.5:
            text = "[" + ", ".join(items) + ("," if items and self.r.random() < 0.3 else "") + "]"
            return text
        body = ""
        for item in items:
            body += self.r.choice(["\n  ", "\n  # note\n  ", " ", "\n\n"]) + item + ","
        return "[" + body + self.r.choice(["\n", " # end\n", ""]) + "]"

    def inline_table(self, depth):
        pairs = [f"{self.key()} = {self.value(depth)}" for _ in range(self.r.randint(0, 3))]
        comma = "," if pairs and self.r.random() < 0.05 else ""  # a trailing comma: refused
        return "{" + self.r.choice(["", " "]) + ", ".join(pairs) + comma + self.r.choice(["", " "]) + "}"

    def comment(self):
        return self.r.choice(["", "", " # c", "  #", " # é ünïcode", "\t# tab\tin"])

    def table_statements(self):
        """A few headers and keys over the names a, b, c: TOML's rules on which table may be
        defined, extended or appended to where."""
        path = lambda: ".".join(self.r.choice("abc") for _ in range(self.r.randint(1, 3)))
        statements = [lambda: f"[{path()}]", lambda: f"[[{path()}]]", lambda: f"{path()} = 1",
                      lambda: f"{path()} = {{ {path()} = 2 }}", lambda: f"{path()} = []", lambda: f"{path()} = [{{}}]"]
        return "\n".join(self.r.choice(statements)() for _ in range(self.r.randint(2, 6))) + "\n"

    def document(self):
        if self.r.random() < 0.15:
            return self.table_statements()
        self.few_keys = self.r.random() < 0.3
        lines = []
        for _ in range(self.r.randint(0, 4)):
            equals = self.pick(" = ", "=", " =\t")
            lines.append(f"{self.key()}{equals}{self.value()}{self.comment()}")
        for _ in range(self.r.randint(0, 4)):
            name = self.key()
            if self.r.random() < 0.3:
                lines.append(f"[[{name}]]{self.comment()}")
            else:
                lines.append(f"[{self.pick('', ' ')}{name}{self.pick('', ' ')}]{self.comment()}")
            for _ in range(self.r.randint(0, 3)):
                lines.append(f"{self.key()} = {self.value()}{self.comment()}")
            if self.r.random() < 0.3:
                lines.append(self.pick("", "# comment", "   "))
        newline = "\r\n" if self.r.random() < 0.2 else "\n"
        text = newline.join(lines)
        if self.r.random() < 0.7:
            text += newline
        return text

    # Mutations
    def mutate(self, text):
        if not text:
            return self.r.choice(["=", "[", "a", "\"", "a = ", "[]"])
        at = self.r.randrange(len(text))
        n = self.r.random()
        noise = ["=", "\"", "'", "[", "]", "{", "}", ",", ".", "#", "\\", "\n", "\r", " ", "_", "0", "9", "x", "e",
                 "+", "-", ":", "T", "Z", "\x00", "\x7f", "\t", "é", "\"\"\"", "'''", "\\u", "\\U0011FFFF", "inf"]
        if n < 0.3:
            return text[:at] + text[at + 1:]
        if n < 0.6:
            return text[:at] + self.r.choice(noise) + text[at:]
        if n < 0.8:
            return text[:at] + self.r.choice(noise) + text[at + 1:]
        lines = text.split("\n")
        if len(lines) < 2:
            return text + "\n" + text
        i, j = self.r.randrange(len(lines)), self.r.randrange(len(lines))
        if n < 0.9:
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generator = Generator(random.Random(args.seed))
    out = sys.stdout
    for case in range(args.cases):
        document = generator.document()
        if case % 2:
            for _ in range(generator.r.choice([1, 1, 1, 2])):
                document = generator.mutate(document)
        out.write(document.encode("utf-8", "surrogatepass").hex() + " " + verdict(document) + "\n")


if __name__ == "__main__":
    main()
