#!/usr/bin/env python3
"""Generates the Swift schema types of TFLiteRuntime from the TFLite FlatBuffers schema.

Usage:
    python3 Scripts/generate_schema.py PATH/TO/schema.fbs > Sources/TFLiteRuntime/Schema/Schema+Generated.swift

The schema is `tensorflow/compiler/mlir/lite/schema/schema.fbs` of the TensorFlow (or
tflite-micro) sources. The output holds, inside `extension Schema`:

* one `public struct` per table with one stored property per non-deprecated field
  (lowerCamelCase of the field name), a public memberwise initialiser with the schema's
  defaults, and an internal decoder `init(table:)` that reads the table eagerly through the
  bounds-checked `FlatBuffers.Table`;
* one `public enum` per enum (cases in lowerCamelCase of the SCREAMING_CASE names, a `name`
  property giving the schema's spelling); enums listed in OPEN_ENUMS become
  `RawRepresentable` structs instead so that values unknown to this schema still decode;
* one `public enum` per union with a case per member table and `unknown(type:)`.

Only the features the TFLite schema uses are supported; anything else stops the generator
with a message rather than producing wrong code.
"""
import hashlib
import re
import sys

SCALARS = {
    "bool": ("Bool", 1), "byte": ("Int8", 1), "ubyte": ("UInt8", 1),
    "int8": ("Int8", 1), "uint8": ("UInt8", 1),
    "short": ("Int16", 2), "ushort": ("UInt16", 2), "int16": ("Int16", 2), "uint16": ("UInt16", 2),
    "int": ("Int32", 4), "uint": ("UInt32", 4), "int32": ("Int32", 4), "uint32": ("UInt32", 4),
    "long": ("Int64", 8), "ulong": ("UInt64", 8), "int64": ("Int64", 8), "uint64": ("UInt64", 8),
    "float": ("Float", 4), "double": ("Double", 8), "float32": ("Float", 4), "float64": ("Double", 8),
}

# Enums whose values a model may extend beyond what this schema knows: decoded as structs.
OPEN_ENUMS = {"BuiltinOperator"}

# Deprecated fields kept anyway because readers still need them.
KEEP_DEPRECATED = {"deprecated_builtin_code"}

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "super", "self",
    "Self", "throw", "throws", "true", "try", "any", "some", "Type",
}


def fail(message):
    sys.exit("generate_schema.py: " + message)


# ---------------------------------------------------------------- parsing

TOKEN = re.compile(r'\s*(?:(//[^\n]*)|("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_.]*)|'
                   r'([-+]?[0-9][0-9A-Za-z_.+-]*)|([{}()\[\]:;,=]))')


def tokenize(text):
    tokens, pos = [], 0
    while True:
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            rest = text[pos:].strip()
            if rest:
                fail("cannot parse schema near: " + rest[:40])
            return tokens
        pos = match.end()
        comment, string, ident, number, punct = match.groups()
        if comment is None:
            tokens.append(string or ident or number or punct)


class Parser:
    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def next(self):
        token = self.peek()
        if token is None:
            fail("unexpected end of schema")
        self.i += 1
        return token

    def expect(self, token):
        got = self.next()
        if got != token:
            fail("expected '%s', got '%s'" % (token, got))

    def attributes(self):
        """Parses an optional `(name, name: value, ...)` list into a dict."""
        attrs = {}
        if self.peek() != "(":
            return attrs
        self.next()
        while self.peek() != ")":
            name = self.next()
            value = True
            if self.peek() == ":":
                self.next()
                value = self.next()
            attrs[name] = value
            if self.peek() == ",":
                self.next()
        self.next()
        return attrs


def parse(text):
    p = Parser(tokenize(text))
    enums, unions, tables, order = {}, {}, {}, []
    while p.peek() is not None:
        keyword = p.next()
        if keyword in ("namespace", "file_identifier", "file_extension", "root_type", "include", "attribute"):
            while p.next() != ";":
                pass
        elif keyword == "enum":
            name = p.next()
            p.expect(":")
            base = p.next()
            p.attributes()
            p.expect("{")
            values, next_value = [], 0
            while p.peek() != "}":
                member = p.next()
                if p.peek() == "=":
                    p.next()
                    next_value = int(p.next(), 0)
                p.attributes()
                values.append((member, next_value))
                next_value += 1
                if p.peek() == ",":
                    p.next()
            p.next()
            enums[name] = (base, values)
            order.append(("enum", name))
        elif keyword == "union":
            name = p.next()
            p.attributes()
            p.expect("{")
            members = []
            while p.peek() != "}":
                member = p.next()
                if p.peek() == ":":
                    fail("aliased union members are not supported (%s)" % name)
                p.attributes()
                members.append(member)
                if p.peek() == ",":
                    p.next()
            p.next()
            unions[name] = members
            order.append(("union", name))
        elif keyword == "table":
            name = p.next()
            p.attributes()
            p.expect("{")
            fields = []
            while p.peek() != "}":
                field = p.next()
                p.expect(":")
                if p.peek() == "[":
                    p.next()
                    ftype = "[" + p.next() + "]"
                    p.expect("]")
                else:
                    ftype = p.next()
                default = None
                if p.peek() == "=":
                    p.next()
                    default = p.next()
                attrs = p.attributes()
                p.expect(";")
                fields.append((field, ftype, default, attrs))
            p.next()
            tables[name] = fields
            order.append(("table", name))
        elif keyword == "struct":
            fail("structs are not supported (the TFLite schema has none)")
        else:
            fail("unknown declaration '%s'" % keyword)
    return enums, unions, tables, order


# ---------------------------------------------------------------- naming

def escape(name):
    return "`%s`" % name if name in SWIFT_KEYWORDS else name


def case_name(screaming):
    parts = [part for part in screaming.split("_") if part]
    name = parts[0].lower() + "".join(part[0].upper() + part[1:].lower() for part in parts[1:])
    return name


def field_name(snake):
    parts = [part for part in snake.split("_") if part]
    return parts[0] + "".join(part[0].upper() + part[1:] for part in parts[1:])


def union_case(type_name):
    return type_name[0].lower() + type_name[1:]


# ---------------------------------------------------------------- generation

class Generator:
    def __init__(self, enums, unions, tables, order):
        self.enums, self.unions, self.tables, self.order = enums, unions, tables, order
        self.out = []

    def emit(self, line=""):
        self.out.append(line)

    def enum_raw(self, name):
        return SCALARS[self.enums[name][0]][0]

    def enum_default(self, name, default):
        """The Swift expression for an enum field's default (value 0 when unspecified)."""
        base, values = self.enums[name]
        if default is None:
            matches = [member for member, value in values if value == 0]
        elif re.match(r"^[-+]?[0-9]", default):
            matches = [member for member, value in values if value == int(default, 0)]
        else:
            matches = [member for member, _ in values if member == default]
        if not matches:
            fail("enum %s has no value for default %r" % (name, default))
        return "." + escape(case_name(matches[0]))

    def enum_raw_default(self, name, default):
        base, values = self.enums[name]
        if default is None:
            return 0
        if re.match(r"^[-+]?[0-9]", default):
            return int(default, 0)
        return dict(values)[default]

    # A field's Swift type, its default expression, and the statement decoding it.
    def field_plan(self, table, index, field, ftype, default):
        what = '"%s.%s"' % (table, field)
        if ftype in SCALARS:
            swift, _ = SCALARS[ftype]
            if swift == "Bool":
                value = "true" if default == "true" else "false"
                return swift, value, "try t.bool(%d, default: %s, %s)" % (index, value, what)
            if swift in ("Float", "Double"):
                value = repr(float(default)) if default is not None else "0"
                method = "float" if swift == "Float" else "double"
                return swift, value, "try t.%s(%d, default: %s, %s)" % (method, index, value, what)
            value = str(int(default, 0)) if default is not None else "0"
            return swift, value, "try t.integer(%d, default: %s as %s, %s)" % (index, value, swift, what)
        if ftype == "string":
            return "String?", "nil", "try t.string(%d, %s)" % (index, what)
        if ftype in self.enums:
            if ftype in OPEN_ENUMS:
                raw = self.enum_raw(ftype)
                value = str(self.enum_raw_default(ftype, default))
                return ("Schema.%s" % ftype, "Schema.%s(rawValue: %s)" % (ftype, value),
                        "Schema.%s(rawValue: try t.integer(%d, default: %s as %s, %s))" % (ftype, index, value, raw, what))
            raw = self.enum_raw(ftype)
            value = self.enum_raw_default(ftype, default)
            return ("Schema.%s" % ftype, self.enum_default(ftype, default),
                    "try decodeEnum(Schema.%s.self, try t.integer(%d, default: %d as %s, %s), %s, at: t.position)"
                    % (ftype, index, value, raw, what, what))
        if ftype in self.tables:
            return ("Schema.%s?" % ftype, "nil",
                    "try t.table(%d, %s).map { (sub) throws(FlatBufferError) in try Schema.%s(table: sub) }" % (index, what, ftype))
        if ftype.startswith("["):
            element = ftype[1:-1]
            if element in ("ubyte", "uint8"):
                return ("Schema.ByteRange?", "nil",
                        "try t.byteVector(%d, %s).map { Schema.ByteRange(offset: $0.lowerBound, count: $0.count) }" % (index, what))
            if element == "string":
                return "[String]", "[]", "try t.strings(%d, %s)" % (index, what)
            if element in SCALARS:
                swift, _ = SCALARS[element]
                if swift == "Bool":
                    return "[Bool]", "[]", "try t.bools(%d, %s)" % (index, what)
                if swift == "Float":
                    return "[Float]", "[]", "try t.floats(%d, %s)" % (index, what)
                if swift == "Double":
                    return "[Double]", "[]", "try t.doubles(%d, %s)" % (index, what)
                return "[%s]" % swift, "[]", "try t.integers(%d, of: %s.self, %s)" % (index, swift, what)
            if element in self.enums and element not in OPEN_ENUMS:
                raw = self.enum_raw(element)
                return ("[Schema.%s]" % element, "[]",
                        "try decodeEnums(Schema.%s.self, try t.integers(%d, of: %s.self, %s), %s, at: t.position)"
                        % (element, index, raw, what, what))
            if element in self.tables:
                return ("[Schema.%s]" % element, "[]",
                        "try decodeTables(Schema.%s.self, try t.tables(%d, %s))" % (element, index, what))
        fail("unsupported field type %s in %s.%s" % (ftype, table, field))

    def generate_enum(self, name):
        base, values = self.enums[name]
        raw = SCALARS[base][0]
        seen = set()
        for member, _ in values:
            swift = case_name(member)
            if swift in seen:
                fail("enum %s: two members map to the Swift name %s" % (name, swift))
            seen.add(swift)
        if name in OPEN_ENUMS:
            self.emit("    /// The schema's `%s` enum (`%s`). A struct rather than an enum so that models" % (name, base))
            self.emit("    /// using values this schema does not know still load; they fail later when an")
            self.emit("    /// operation is looked up.")
            self.emit("    public struct %s: RawRepresentable, Hashable, Sendable, CustomStringConvertible {" % name)
            self.emit("        /// The value stored in the model.")
            self.emit("        public let rawValue: %s" % raw)
            self.emit()
            self.emit("        /// Wraps any stored value, known or not.")
            self.emit("        public init(rawValue: %s) { self.rawValue = rawValue }" % raw)
            self.emit()
            for member, value in values:
                self.emit("        /// `%s` (%d)." % (member, value))
                self.emit("        public static let %s = %s(rawValue: %d)" % (escape(case_name(member)), name, value))
            self.emit()
            self.emit("        /// The schema's name for this value (e.g. `%s`), or `BUILTIN_<n>` when unknown." % values[0][0])
            self.emit("        public var name: String {")
            self.emit("            switch rawValue {")
            for member, value in values:
                self.emit('            case %d: "%s"' % (value, member))
            self.emit('            default: "BUILTIN_\\(rawValue)"')
            self.emit("            }")
            self.emit("        }")
            self.emit()
            self.emit("        /// The schema's name, as ``name``.")
            self.emit("        public var description: String { name }")
            self.emit("    }")
            return
        self.emit("    /// The schema's `%s` enum (`%s`)." % (name, base))
        self.emit("    public enum %s: %s, Sendable, Hashable, CaseIterable, CustomStringConvertible {" % (name, raw))
        for member, value in values:
            self.emit("        /// `%s` (%d)." % (member, value))
            self.emit("        case %s = %d" % (escape(case_name(member)), value))
        self.emit()
        self.emit("        /// The schema's name for this value (e.g. `%s`)." % values[0][0])
        self.emit("        public var name: String {")
        self.emit("            switch self {")
        for member, _ in values:
            self.emit('            case .%s: "%s"' % (escape(case_name(member)), member))
        self.emit("            }")
        self.emit("        }")
        self.emit()
        self.emit("        /// The schema's name, as ``name``.")
        self.emit("        public var description: String { name }")
        self.emit("    }")

    def generate_union(self, name):
        members = self.unions[name]
        for member in members:
            if member not in self.tables:
                fail("union %s member %s is not a table" % (name, member))
        self.emit("    /// The schema's `%s` union: one case per member table." % name)
        self.emit("    public enum %s: Sendable, Equatable {" % name)
        for tag, member in enumerate(members, start=1):
            self.emit("        /// `%s` (type tag %d)." % (member, tag))
            self.emit("        case %s(Schema.%s)" % (escape(union_case(member)), member))
        self.emit("        /// A type tag this schema does not know; its table is not decoded.")
        self.emit("        case unknown(type: UInt8)")
        self.emit()
        self.emit("        /// The type tag stored in the model for this member.")
        self.emit("        public var typeTag: UInt8 {")
        self.emit("            switch self {")
        for tag, member in enumerate(members, start=1):
            self.emit("            case .%s: %d" % (escape(union_case(member)), tag))
        self.emit("            case .unknown(let type): type")
        self.emit("            }")
        self.emit("        }")
        self.emit()
        self.emit("        /// Decodes the member table `table` tagged `type` (never 0, which means none).")
        self.emit("        init(type: UInt8, table: Table) throws(FlatBufferError) {")
        self.emit("            switch type {")
        for tag, member in enumerate(members, start=1):
            self.emit("            case %d: self = .%s(try Schema.%s(table: table))" % (tag, escape(union_case(member)), member))
        self.emit("            default: self = .unknown(type: type)")
        self.emit("            }")
        self.emit("        }")
        self.emit("    }")

    def generate_table(self, name):
        fields = self.tables[name]
        plans = []  # (swift name, swift type, default, decode expression or union info, schema field)
        index = 0
        for field, ftype, default, attrs in fields:
            if ftype in self.unions:
                what = '"%s.%s"' % (name, field)
                decode = ("try decodeUnion(tag: try t.integer(%d, default: 0 as UInt8, \"%s.%s_type\"), "
                          "table: try t.table(%d, %s), Schema.%s.init(type:table:))"
                          % (index, name, field, index + 1, what, ftype))
                plan = ("Schema.%s?" % ftype, "nil", decode)
                index += 2
            else:
                plan = self.field_plan(name, index, field, ftype, default)
                index += 1
            if "deprecated" in attrs and field not in KEEP_DEPRECATED:
                continue
            plans.append((escape(field_name(field)), plan[0], plan[1], plan[2], field, ftype, default))
        self.emit("    /// The schema's `%s` table." % name)
        self.emit("    public struct %s: Sendable, Equatable {" % name)
        for swift, stype, sdefault, _, field, ftype, default in plans:
            note = "" if default is None else " (default `%s`)" % default
            self.emit("        /// `%s: %s`%s." % (field, ftype, note))
            self.emit("        public var %s: %s" % (swift, stype))
        self.emit()
        if plans:
            self.emit("        /// Creates the table from its fields; omitted fields take the schema's defaults.")
            params = ", ".join("%s: %s = %s" % (swift, stype, sdefault) for swift, stype, sdefault, *_ in plans)
            self.emit("        public init(%s) {" % params)
            for swift, *_ in plans:
                plain = swift.strip("`")
                self.emit("            self.%s = %s" % (plain, swift))
            self.emit("        }")
        else:
            self.emit("        /// Creates the (field-less) table.")
            self.emit("        public init() {}")
        self.emit()
        self.emit("        /// Decodes every field of `t` eagerly, checking each read.")
        self.emit("        init(table t: Table) throws(FlatBufferError) {")
        for swift, _, _, decode, *_ in plans:
            self.emit("            self.%s = %s" % (swift.strip("`"), decode))
        self.emit("        }")
        self.emit("    }")

    def generate(self, digest):
        self.emit("// Generated by Scripts/generate_schema.py from the TFLite FlatBuffers schema")
        self.emit("// (tensorflow/compiler/mlir/lite/schema/schema.fbs, sha256 %s)." % digest)
        self.emit("// Do not edit. To regenerate:")
        self.emit("//   python3 Scripts/generate_schema.py PATH/TO/schema.fbs > Sources/TFLiteRuntime/Schema/Schema+Generated.swift")
        self.emit()
        self.emit("import FlatBuffers")
        self.emit()
        self.emit("extension Schema {")
        first = True
        for kind, name in self.order:
            if not first:
                self.emit()
            first = False
            if kind == "enum":
                self.generate_enum(name)
            elif kind == "union":
                self.generate_union(name)
            else:
                self.generate_table(name)
        self.emit("}")
        self.emit()
        tables = [name for kind, name in self.order if kind == "table"]
        self.emit("extension Schema.%s: TableDecodable {}" % tables[0])
        for name in tables[1:]:
            self.emit("extension Schema.%s: TableDecodable {}" % name)
        return "\n".join(self.out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate_schema.py PATH/TO/schema.fbs > Schema+Generated.swift")
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    enums, unions, tables, order = parse(text)
    digest = hashlib.sha256(raw).hexdigest()
    sys.stdout.write(Generator(enums, unions, tables, order).generate(digest))


if __name__ == "__main__":
    main()
