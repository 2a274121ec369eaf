/// Finds the texts Swift sources mark for translation: each `Message("…")`, with its `plural:` and `context:` when
/// given, all three string literals. A marked text that is not a literal (an interpolation, a variable) cannot be in a
/// catalog, and is reported so that it is rewritten with placeholders.
public enum SwiftMessageScanner {
    public struct Found: Sendable {
        public let text: ExtractedText
        public let line: Int
    }

    public struct Problem: Sendable, CustomStringConvertible {
        public let line: Int
        public let problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    public static func scan(_ source: String) -> (found: [Found], problems: [Problem]) {
        let characters = Array(source)
        var found: [Found] = []
        var problems: [Problem] = []
        var index = 0
        var line = 1
        let keyword = Array("Message(")
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1 }
            if character == "/", index + 1 < characters.count, characters[index + 1] == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "\"" {
                index = skipString(characters, from: index, line: &line)
                continue
            }
            let precededByName = index > 0 && (characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == "_" || characters[index - 1] == ".")
            if !precededByName, characters[index...].starts(with: keyword) {
                let start = line
                let arguments = self.arguments(characters, from: index + keyword.count, line: &line, end: &index)
                switch marked(arguments) {
                case .text(let text)?: found.append(Found(text: text, line: start))
                case .problem(let problem)?: problems.append(Problem(line: start, problem: problem))
                case nil: break
                }
                continue
            }
            index += 1
        }
        return (found, problems)
    }

    /// The arguments up to the matching `)`, split at top-level commas, as written.
    private static func arguments(_ characters: [Character], from start: Int, line: inout Int, end: inout Int) -> [String] {
        var arguments: [String] = []
        var current = ""
        var depth = 0
        var index = start
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                let after = skipString(characters, from: index, line: &line)
                current += String(characters[index..<after])
                index = after
                continue
            }
            if character == "\n" { line += 1 }
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" {
                if depth == 0 { index += 1; break }
                depth -= 1
            }
            if character == ",", depth == 0 {
                arguments.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        arguments.append(current)
        end = index
        return arguments.map { $0.trimmingWhitespace }
    }

    private enum Outcome {
        case text(ExtractedText)
        case problem(String)
    }

    /// The text a `Message(…)` call marks; nil for a call that is not one (`Message(msgid: …)` inside Translations).
    private static func marked(_ arguments: [String]) -> Outcome? {
        guard let first = arguments.first, !first.isEmpty, !first.contains(":") || first.hasPrefix("\"") else { return nil }
        guard let msgid = literal(first) else {
            return .problem("Message(\(first)…) marks no plain string literal: write the text with {placeholders}")
        }
        var plural: String?
        var context: String?
        for argument in arguments.dropFirst() {
            for label in ["plural:", "context:"] where argument.hasPrefix(label) {
                let value = String(argument.dropFirst(label.count)).trimmingWhitespace
                guard let text = literal(value) else { return .problem("\(label) \(value) is not a plain string literal") }
                if label == "plural:" { plural = text } else { context = text }
            }
        }
        return .text(ExtractedText(msgid: msgid, plural: plural, context: context))
    }

    /// A plain string literal's text; nil for anything else, an interpolating literal included.
    private static func literal(_ written: String) -> String? {
        guard written.count >= 2, written.hasPrefix("\""), written.hasSuffix("\""), !written.hasPrefix("\"\"\"") else { return nil }
        var text = ""
        var characters = written.dropFirst().dropLast().makeIterator()
        while let character = characters.next() {
            guard character == "\\" else {
                if character == "\"" { return nil }
                text.append(character)
                continue
            }
            switch characters.next() {
            case "n": text += "\n"
            case "t": text += "\t"
            case "\"": text += "\""
            case "\\": text += "\\"
            case "'": text += "'"
            case "u":
                guard characters.next() == "{" else { return nil }
                var hex = ""
                while let digit = characters.next(), digit != "}" { hex.append(digit) }
                guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                text.unicodeScalars.append(scalar)
            default: return nil
            }
        }
        return text
    }

    /// The index after a string literal starting at `start` (a one-line literal; a `"""` literal to its close).
    private static func skipString(_ characters: [Character], from start: Int, line: inout Int) -> Int {
        if characters[start...].starts(with: ["\"", "\"", "\""]) {
            var index = start + 3
            while index < characters.count, !characters[index...].starts(with: ["\"", "\"", "\""]) {
                if characters[index] == "\n" { line += 1 }
                index += 1
            }
            return min(index + 3, characters.count)
        }
        var index = start + 1
        while index < characters.count, characters[index] != "\"", characters[index] != "\n" {
            index += characters[index] == "\\" ? 2 : 1
        }
        return min(index + 1, characters.count)
    }
}

private extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
