"""The HBase shell's argument syntax: the small part of Ruby that shell commands are written in.

    create 't1', {NAME => 'f1', VERSIONS => 5}, SPLITS => ['10', '20']
    get 't1', "row\\x00\\x01", COLUMN => 'f1:q', TIMERANGE => [0, 1000 * 60]

A statement is a command name followed by arguments, with or without parentheses, an
assignment to a local variable, or an expression (hsim.shell.nodes). Arguments are Ruby
literals: 'single' and "double" quoted strings (with Ruby's escapes), integers (`1_000`,
`0x1F`), floats, `true` / `false` / `nil`, arrays, `{KEY => value}` hashes, a trailing hash
without braces, and constants (`VERSIONS` is the string 'VERSIONS', as in HBase's
HBaseConstants; `FOREVER` is HConstants.FOREVER). Numbers combine with + - * / and parentheses.

The tokens and strings come from hsim.shell.lexer.
"""

from __future__ import annotations

from hsim.shell.lexer import (Incomplete, ShellSyntaxError, _tokens, to_bytes,  # noqa: F401
                              to_text, tokenize)
from hsim.shell.nodes import (ArrayNode, Assign, BinOp, Block, HashNode, Index, Interpolation,
                              Literal, Node, Statement, Var, has_nodes)
from hsim.shell.values import (RubyError, arith, ruby_inspect, ruby_literal,  # noqa: F401
                               ruby_to_s)

FOREVER = 2**31 - 1  # HConstants.FOREVER
# Ruby keywords: never a call's first argument
KEYWORDS = frozenset(("do", "end", "then", "and", "or", "not", "if", "unless", "while", "until",
                      "rescue", "ensure", "begin", "def", "class", "module", "yield", "return"))


class _Parser:
    """Statements: `name = value`, a command call with or without parentheses, or an
    expression (a local variable, a method call on a value, a literal). As in Ruby, a name is
    a local variable once an assignment to it has been read, and a call's arguments may go
    without parentheses only at the start of a statement."""

    def __init__(self, toks, spaced, local_names):
        self.toks = toks
        self.spaced = spaced  # spaced[i]: token i follows white space
        self.i = 0
        self.locals = local_names
        self.command_ok = False  # may the next call take arguments without parentheses?
        self.block_depth = 0  # inside how many blocks (where `}` and `end` close a statement)

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("eof", None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expect(self, kind, value=None):
        t = self.take()
        if t[0] == "eof":
            raise Incomplete("unexpected end-of-input")
        if t[0] != kind or (value is not None and t[1] != value):
            raise ShellSyntaxError(f"unexpected {_describe(t)}")
        return t

    def at(self, kind, value=None) -> bool:
        t = self.peek()
        return t[0] == kind and (value is None or t[1] == value)

    def _spaced(self, k: int = 0) -> bool:
        j = self.i + k
        return j < len(self.spaced) and self.spaced[j]

    def _at_end(self) -> bool:
        if self.block_depth and (self.at("op", "}") or self.at("name", "end")):
            return True
        return self.at("newline") or self.at("eof")

    def statement(self):
        while self.at("newline"):
            self.take()
        if self.at("eof"):
            return None
        node = self._statement_node()
        if not self._at_end():
            raise ShellSyntaxError(f"unexpected {_describe(self.peek())}")
        return node

    def _statement_node(self):
        if self.at("name", "explain") and self.peek(1)[0] == "name" and \
                self.peek(1)[1] in ("get", "scan"):
            # `explain get 't', 'r'`: the explained command's name leads its arguments
            self.take()
            args = [self.take()[1]]
            if not self._at_end():
                if self.at("op", ","):
                    self.take()
                args += self.args(closer=None)
            return Statement("explain", args)
        if self.at("name") and _is_local_name(self.peek()[1]) and self.peek(1) == ("op", "="):
            name = self.take()[1]
            self.take()
            while self.at("newline"):
                self.take()
            self.locals.add(name)  # Ruby defines the variable as it reads the assignment
            return Assign(name, self._command_expr())
        node = self._command_expr()
        return node if isinstance(node, Node) else Literal(node)

    def _block(self, after_command_args: bool):
        """A block after a call: `{ |x| ... }` (not after arguments without parentheses: Ruby
        gives those `do ... end`) or `do |x| ... end`; None if there is none."""
        if self.at("op", "{") and not after_command_args:
            close = "}"
        elif self.at("name", "do"):
            close = "end"
        else:
            return None
        self.take()
        params = []
        self._skip_newlines()
        if self.at("op", "|"):
            self.take()
            while not self.at("op", "|"):
                kind, val = self.take()
                if kind == "eof":
                    raise Incomplete("unexpected end-of-input")
                if kind == "name" and _is_local_name(val):
                    params.append(val)
                elif (kind, val) != ("op", ","):
                    raise ShellSyntaxError(f"unexpected {_describe((kind, val))}")
            self.take()
        added = [x for x in params if x not in self.locals]
        self.locals.update(added)  # the parameters are local variables inside the block
        self.block_depth += 1
        body = []
        try:
            while True:
                self._skip_newlines()
                if self.at("op", "}") if close == "}" else self.at("name", "end"):
                    self.take()
                    return Block(params, body)
                if self.at("eof"):
                    raise Incomplete("unexpected end-of-input")
                body.append(self._statement_node())
                if not self._at_end():
                    raise ShellSyntaxError(f"unexpected {_describe(self.peek())}")
        finally:
            self.block_depth -= 1
            self.locals.difference_update(added)

    def _command_expr(self):
        self.command_ok = True
        try:
            return self.expr()
        finally:
            self.command_ok = False

    def _command_args_follow(self, on_receiver: bool) -> bool:
        """Does a call's argument list without parentheses start here (Ruby's command call)?"""
        if not self.command_ok:
            return False
        kind, val = self.peek()
        if kind in ("string", "istring", "number", "symkey"):
            return True
        if kind == "name":
            return val not in KEYWORDS
        if kind == "op" and val == "[":
            return self._spaced()
        if kind == "op" and val == "-":
            return self._spaced() and not self._spaced(1)
        return False  # `f {` starts a block, not a hash

    def _call_args(self, on_receiver: bool) -> list | None:
        """A call's arguments: `(...)`, a command's argument list, or None for no arguments.
        (`on_receiver`: a method call on a value.)"""
        if self.at("op", "(") and not self._spaced():
            self.command_ok = False
            self.take()
            args = self.args(closer=")")
            self.expect("op", ")")
            return args
        if self._command_args_follow(on_receiver):
            self.command_ok = False
            return self.args(closer=None)
        return None

    def args(self, closer) -> list:
        """Comma-separated arguments; trailing `KEY => value` pairs form one hash."""
        self.command_ok = False
        args: list = []
        trailing: list | None = None
        if closer and self.at("op", closer):
            return args
        while True:
            if self.at("eof"):
                raise Incomplete("unexpected end-of-input")
            key_pair = self._pair_ahead()
            if key_pair or trailing is not None:
                if trailing is None:
                    trailing = []
                    args.append(trailing)
                trailing.append(self.pair())
            else:
                args.append(self.expr())
            if self.at("op", ","):
                self.take()
                while self.at("newline"):  # Ruby reads on after a trailing comma
                    self.take()
                if self.at("eof"):
                    raise Incomplete("unexpected end-of-input after ','")
                continue
            if trailing is not None:
                args[args.index(trailing)] = _hash(trailing)
            return args

    def _pair_ahead(self) -> bool:
        """Is the next thing `key => value` or `key: value`?"""
        if self.peek()[0] == "symkey":
            return False
        depth = 0
        j = self.i
        while j < len(self.toks):
            kind, val = self.toks[j]
            if kind == "op" and val in "([{":
                depth += 1
            elif kind == "op" and val in ")]}":
                if depth == 0:
                    return False
                depth -= 1
            elif depth == 0 and kind == "arrow":
                return True
            elif depth == 0 and (kind == "newline" or (kind == "op" and val == ",")):
                return False
            elif depth == 0 and kind == "op" and val == ":" and j == self.i + 1 and \
                    self.toks[self.i][0] in ("name", "string"):
                return True
            j += 1
        return False

    def pair(self):
        if self.peek()[0] in ("name", "string") and self.peek(1) == ("op", ":"):
            k = self.take()[1]  # Ruby 1.9 `KEY: value`
            self.take()
        else:
            k = self.expr()
            self.expect("arrow")
        while self.at("newline"):
            self.take()
        return k, self.expr()

    # expr := sum [cmp sum]; sum := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*
    def expr(self):
        v = self.sum()
        if self.at("cmp"):
            op = self.take()[1]
            self.command_ok = False
            self._skip_newlines()
            v = fold(v, op, self.sum())
        return v

    def sum(self):
        return self._left_assoc(self.term, "+", "-")

    def term(self):
        return self._left_assoc(self.unary, "*", "/", "%")

    def _left_assoc(self, operand, *ops):
        """`operand (op operand)*` for one precedence level, grouped left to right."""
        v = operand()
        while any(self.at("op", op) for op in ops):
            op = self.take()[1]
            self.command_ok = False
            self._skip_newlines()  # Ruby reads on after a binary operator
            v = fold(v, op, operand())
        return v

    def unary(self):
        if self.at("op", "-"):
            self.take()
            self.command_ok = False
            v = self.unary()
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v
            return BinOp("-@", None, v)
        if self.at("op", "+"):
            self.take()
            return self.unary()
        return self.postfix()

    def postfix(self):
        """A primary, then `.method [args]` calls and `[index]`es."""
        v = self.atom()
        while True:
            if self.at("op", ".") and self.peek(1)[0] == "name":
                self.take()
                name = self.take()[1]
                paren = self.at("op", "(") and not self._spaced()
                args = self._call_args(on_receiver=True)
                block = self._block(after_command_args=args is not None and not paren)
                v = Statement(name, args or [], Literal(v) if not isinstance(v, Node) else v,
                              block=block)
            elif self.at("op", "[") and not self._spaced():
                self.take()
                self.command_ok = False
                items = self._sequence("]", self.expr)
                v = Index(Literal(v) if not isinstance(v, Node) else v, items)
            else:
                self.command_ok = False
                return v

    def atom(self):
        kind, val = self.take()
        if kind == "eof":
            raise Incomplete("unexpected end-of-input")
        if kind in ("string", "number"):
            return val
        if kind == "istring":
            return self._interpolation(val)
        if kind == "symkey":
            return val[1:]  # a Ruby symbol :name reads as its name
        if kind == "name":
            if val == "true":
                return True
            if val == "false":
                return False
            if val == "nil":
                return None
            if val == "FOREVER":
                return FOREVER
            if val[0].isupper():
                return val  # HBaseConstants: the constant's value is its own name
            if val in KEYWORDS:
                raise ShellSyntaxError(f"unexpected '{val}' (hsim's shell reads no Ruby "
                                       "control structures)")
            if val in self.locals and not (self.at("op", "(") and not self._spaced()):
                return Var(val)
            paren = self.at("op", "(") and not self._spaced()
            args = self._call_args(on_receiver=False)
            block = self._block(after_command_args=args is not None and not paren)
            return Statement(val, args or [], vcall=args is None and block is None, block=block)
        chain, self.command_ok = self.command_ok, False
        if kind == "op" and val == "(":
            v = self.expr()
            self.expect("op", ")")
        elif kind == "op" and val == "[":
            items = self._sequence("]", self.expr)
            v = ArrayNode(items) if has_nodes(items) else items
        elif kind == "op" and val == "{":
            v = _hash(self._sequence("}", self.pair))
        else:
            raise ShellSyntaxError(f"unexpected {_describe((kind, val))}")
        self.command_ok = chain  # `[1].first 1`: a method call on it may take arguments
        return v

    def _interpolation(self, parts: list):
        """`"row#{i}"`: each `#{...}` parsed as an expression with the same local variables."""
        out = []
        for part in parts:
            if isinstance(part, tuple) and not part[1].strip():
                out.append("")  # "#{}" is nil.to_s
            elif isinstance(part, tuple):
                toks, spaced = _tokens(part[1])
                sub = _Parser(toks, spaced, self.locals)
                sub._skip_newlines()
                node = sub._statement_node()
                sub._skip_newlines()
                if not sub.at("eof"):
                    raise ShellSyntaxError(f"unexpected {_describe(sub.peek())}")
                out.append(node.value if isinstance(node, Literal) else node)
            else:
                out.append(part)
        if has_nodes(out):
            return Interpolation(out)
        return "".join(ruby_to_s(p) for p in out)

    def _sequence(self, close: str, item) -> list:
        """The comma-separated items of an array or hash literal, up to and including `close`
        (newlines allowed between items, a trailing comma too, as in Ruby)."""
        items = []
        self._skip_newlines()
        while not self.at("op", close):
            items.append(item())
            self._skip_newlines()
            if self.at("op", ","):
                self.take()
                self._skip_newlines()
            elif not self.at("op", close):
                if self.at("eof"):
                    raise Incomplete("unexpected end-of-input")
                raise ShellSyntaxError(f"unexpected {_describe(self.peek())}")
        self.take()
        return items

    def _skip_newlines(self):
        while self.at("newline"):
            self.take()


def _is_local_name(name: str) -> bool:
    return (name[0].islower() or name[0] == "_") and name[-1] not in "?!" and \
        name not in ("true", "false", "nil")


def _hash(pairs: list):
    """A hash literal: a dict, or a HashNode when a key or value is known only at run time."""
    if any(isinstance(x, Node) for pair in pairs for x in pair):
        return HashNode(pairs)
    return dict(pairs)


def fold(a, op, b):
    """`a op b` on literals, as Ruby computes it; a node (or what Ruby would refuse: its error
    is a run-time error) stays a BinOp for the shell to evaluate."""
    if isinstance(a, Node) or isinstance(b, Node):
        return BinOp(op, a, b)
    try:
        return arith(a, op, b)
    except RubyError:
        return BinOp(op, a, b)


def _describe(tok) -> str:
    kind, val = tok
    if kind == "eof":
        return "end-of-input"
    if kind == "newline":
        return "'\\n'"
    if kind in ("string", "istring"):
        return "string literal"
    if kind == "number":
        return "integer literal" if isinstance(val, int) else "float literal"
    if kind in ("arrow", "cmp"):
        return f"'{val}'" if kind == "cmp" else "=>"
    return f"'{val}'"


def parse_statements(text: str, local_names: set | None = None) -> list:
    """Every statement of a script (lines, or `;`-separated): Statement, Assign or another
    node. `local_names` are the session's local variables; assignments read add to them.
    Raises Incomplete when the text ends inside a statement, ShellSyntaxError when it cannot
    parse."""
    toks, spaced = _tokens(text)
    p = _Parser(_check_nesting(toks), spaced, set() if local_names is None else local_names)
    out = []
    while True:
        st = p.statement()
        if st is None:
            return out
        out.append(st)


MAX_NESTING = 100  # brackets and braces deep; the recursive parser stays within Python's stack


def _check_nesting(toks) -> list:
    depth = 0
    for kind, val in toks:
        depth += (val in ("(", "[", "{")) - (val in (")", "]", "}")) if kind == "op" else 0
        if depth > MAX_NESTING:
            raise ShellSyntaxError(f"nesting deeper than {MAX_NESTING} brackets")
    return toks


def parse(text: str):
    """One statement (None for a blank or comment-only line)."""
    sts = parse_statements(text)
    if len(sts) > 1:
        raise ShellSyntaxError("one statement expected")
    return sts[0] if sts else None


def needs_more(text: str) -> bool:
    """Does `text` end inside a statement (so the REPL should read another line)?"""
    try:
        parse_statements(text)
    except Incomplete:
        return True
    except ShellSyntaxError:
        return False
    return False
