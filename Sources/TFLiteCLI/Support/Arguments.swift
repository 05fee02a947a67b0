/// A small command-line parser: flags and options are taken out by name, what is left is
/// positional. Every accessor throws `UsageError` with a message naming the option.
struct Arguments {
    private var remaining: [String]

    init(_ arguments: [String]) {
        remaining = arguments
    }

    /// True when `--help` or `-h` is present (and removes it).
    mutating func wantsHelp() -> Bool {
        flag("--help") || flag("-h")
    }

    /// Removes a boolean flag; true if it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let i = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: i)
        return true
    }

    /// Removes the last `--name VALUE` (or `--name=VALUE`) and returns VALUE.
    mutating func option(_ name: String) throws -> String? {
        try options(name).last
    }

    /// Removes every `--name VALUE` (or `--name=VALUE`), in order.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        var i = 0
        while i < remaining.count {
            let arg = remaining[i]
            if arg == name {
                guard i + 1 < remaining.count else { throw UsageError("option \(name) needs a value") }
                values.append(remaining[i + 1])
                remaining.removeSubrange(i...(i + 1))
            } else if arg.hasPrefix(name + "=") {
                values.append(String(arg.dropFirst(name.count + 1)))
                remaining.remove(at: i)
            } else {
                i += 1
            }
        }
        return values
    }

    /// Removes `--name N` and parses it as an integer within `range`.
    mutating func intOption(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("option \(name) needs an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// Removes `--name X` and parses it as a finite number.
    mutating func doubleOption(_ name: String) throws -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("option \(name) needs a number, got '\(text)'")
        }
        return value
    }

    /// Removes `--time-limit SECONDS`: the time one invocation may take (default 300 s, 0 for
    /// none), so a model whose loop never ends cannot hang the tool.
    mutating func timeLimitOption() throws -> Duration? {
        let seconds = try doubleOption("--time-limit") ?? 300
        guard seconds >= 0 else { throw UsageError("option --time-limit needs 0 or more seconds, got \(seconds)") }
        return seconds > 0 ? .milliseconds(Int64(min(seconds, 1e9) * 1000)) : nil
    }

    /// Takes the remaining positional arguments; fails on any leftover option.
    mutating func positionals() throws -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError("unknown option '\(unknown)'")
        }
        defer { remaining = [] }
        return remaining
    }

    /// Takes exactly `count` positional arguments named in `names` for the message.
    mutating func positionals(exactly names: String...) throws -> [String] {
        let values = try positionals()
        guard values.count == names.count else {
            throw UsageError("expected \(names.joined(separator: " ")), got \(values.count) argument(s)")
        }
        return values
    }
}
