import Foundation

/// A catalog's `Plural-Forms` rule: which of its plural forms a number takes. gettext writes it as a C expression over
/// `n` (`nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);`), evaluated here
/// by a small parser of that expression language: numbers, `n`, parentheses, `! * / % + - < <= > >= == != && || ?:`.
public struct PluralRule: Sendable {
    /// How many plural forms the language has.
    public let count: Int
    private let expression: PluralExpression

    /// English's rule (and the rule when a catalog says none): one form for 1, another for everything else.
    public static let english = PluralRule(count: 2, expression: .binary(.notEqual, .n, .number(1)))

    private init(count: Int, expression: PluralExpression) {
        self.count = count
        self.expression = expression
    }

    /// Parses a `Plural-Forms` header's value.
    public init(header: String) throws(PluralRuleError) {
        var count: Int?
        var expression: PluralExpression?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].trimmingCharacters(in: .whitespaces) {
            case "nplurals": count = Int(pair[1].trimmingCharacters(in: .whitespaces))
            case "plural": expression = try PluralExpressionParser.parse(String(pair[1]))
            default: continue
            }
        }
        guard let count, count >= 1 else { throw PluralRuleError(header: header, problem: "nplurals is missing or not a positive number") }
        guard let expression else { throw PluralRuleError(header: header, problem: "plural= is missing") }
        self.init(count: count, expression: expression)
    }

    /// The form `number` takes, from 0 to `count - 1` (a rule giving a form out of range gives the last).
    public func form(for number: Int) -> Int {
        let form = expression.value(n: number.magnitude)
        return Int(min(form, UInt(count - 1)))
    }
}

public struct PluralRuleError: Error, CustomStringConvertible {
    public let header: String
    public let problem: String
    public var description: String { "Plural-Forms \"\(header)\": \(problem)" }
}

private indirect enum PluralExpression: Sendable {
    enum Operator: Sendable {
        case multiply, divide, remainder, add, subtract, less, lessOrEqual, greater, greaterOrEqual, equal, notEqual, and, or
    }

    case n
    case number(UInt)
    case not(PluralExpression)
    case binary(Operator, PluralExpression, PluralExpression)
    case choice(PluralExpression, PluralExpression, PluralExpression)

    /// Unsigned as in gettext (`unsigned long int n`); dividing by zero gives 0 rather than stopping the server.
    func value(n: UInt) -> UInt {
        switch self {
        case .n: return n
        case .number(let number): return number
        case .not(let inner): return inner.value(n: n) == 0 ? 1 : 0
        case .choice(let condition, let then, let otherwise):
            return condition.value(n: n) != 0 ? then.value(n: n) : otherwise.value(n: n)
        case .binary(.and, let left, let right): return left.value(n: n) != 0 && right.value(n: n) != 0 ? 1 : 0
        case .binary(.or, let left, let right): return left.value(n: n) != 0 || right.value(n: n) != 0 ? 1 : 0
        case .binary(let op, let left, let right):
            let a = left.value(n: n), b = right.value(n: n)
            switch op {
            case .multiply: return a &* b
            case .divide: return b == 0 ? 0 : a / b
            case .remainder: return b == 0 ? 0 : a % b
            case .add: return a &+ b
            case .subtract: return a &- b
            case .less: return a < b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .and, .or: return 0
            }
        }
    }
}

/// Precedence climbing over C's levels: `?:`, `||`, `&&`, equality, relational, additive, multiplicative, unary `!`.
private struct PluralExpressionParser {
    private var tokens: [String]
    private var position = 0
    private let source: String

    static func parse(_ source: String) throws(PluralRuleError) -> PluralExpression {
        var parser = PluralExpressionParser(tokens: try tokenize(source), source: source)
        let expression = try parser.conditional()
        guard parser.position == parser.tokens.count else { throw parser.failure("unexpected \(parser.tokens[parser.position])") }
        return expression
    }

    private init(tokens: [String], source: String) {
        self.tokens = tokens
        self.source = source
    }

    private static func tokenize(_ source: String) throws(PluralRuleError) -> [String] {
        var tokens: [String] = []
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace { index += 1; continue }
            if character.isASCII, character.isNumber {
                var end = index
                while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                tokens.append(String(characters[index..<end]))
                index = end
                continue
            }
            let pair = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
            if ["<=", ">=", "==", "!=", "&&", "||"].contains(pair) {
                tokens.append(pair)
                index += 2
            } else if "n()!*/%+-<>?:".contains(character) {
                tokens.append(String(character))
                index += 1
            } else {
                throw PluralRuleError(header: source, problem: "unexpected character \(character)")
            }
        }
        return tokens
    }

    private func failure(_ problem: String) -> PluralRuleError { PluralRuleError(header: source, problem: problem) }

    private var next: String? { position < tokens.count ? tokens[position] : nil }

    private mutating func take(_ token: String) -> Bool {
        guard next == token else { return false }
        position += 1
        return true
    }

    private mutating func conditional() throws(PluralRuleError) -> PluralExpression {
        let condition = try binary(level: 0)
        guard take("?") else { return condition }
        let then = try conditional()
        guard take(":") else { throw failure("a ? without its :") }
        return .choice(condition, then, try conditional())
    }

    private static let levels: [[String: PluralExpression.Operator]] = [
        ["||": .or], ["&&": .and], ["==": .equal, "!=": .notEqual],
        ["<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual],
        ["+": .add, "-": .subtract], ["*": .multiply, "/": .divide, "%": .remainder],
    ]

    private mutating func binary(level: Int) throws(PluralRuleError) -> PluralExpression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while let token = next, let op = Self.levels[level][token] {
            position += 1
            left = .binary(op, left, try binary(level: level + 1))
        }
        return left
    }

    private mutating func unary() throws(PluralRuleError) -> PluralExpression {
        guard let token = next else { throw failure("the expression ends too soon") }
        position += 1
        switch token {
        case "!": return .not(try unary())
        case "n": return .n
        case "(":
            let inner = try conditional()
            guard take(")") else { throw failure("a ( without its )") }
            return inner
        default:
            guard let number = UInt(token) else { throw failure("unexpected \(token)") }
            return .number(number)
        }
    }
}
