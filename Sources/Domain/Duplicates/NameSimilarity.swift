import Foundation

/// How alike two names are, for finding records that may be the same person or place although typed differently
/// ("Jon Smith" and "John Smith", "Dubois, Émile" and "Emile Dubois"). Names are compared once folded (case and accents
/// ignored, as search folds them) with their words in alphabetical order, by Jaro–Winkler similarity: 1 for the same
/// words, less the more letters differ or move, most for a difference near the start.
public enum NameSimilarity {
    /// At or above this score two different names are shown as a possible duplicate. Chosen on pairs like
    /// "jon smith"/"john smith" (0.97), "ann lee"/"anne lee" (0.94), "mohammed ali"/"muhammad ali" (0.93), below
    /// which pairs like "ann lee"/"anna kim" (0.78) fall.
    public static let threshold = 0.9

    /// A name's words, folded text split at anything that is not a letter or a digit, in alphabetical order.
    public static func words(_ folded: String) -> [String] {
        folded.split { !($0.isLetter || $0.isNumber) }.map(String.init).sorted()
    }

    /// 0 when the names hold different numbers ("Flat 12" and "Flat 13" are two places, whatever their letters).
    public static func score(_ first: String, _ second: String) -> Double {
        let (a, b) = (words(first), words(second))
        guard numbers(a) == numbers(b) else { return 0 }
        return jaroWinkler(Array(a.joined(separator: " ").unicodeScalars), Array(b.joined(separator: " ").unicodeScalars))
    }

    private static func numbers(_ words: [String]) -> [String] {
        words.map { String($0.filter(\.isNumber)) }.filter { !$0.isEmpty }
    }

    /// Keys under which names that may be alike meet, so a name is compared with a few others rather than every one:
    /// each word's first three letters with the first letters of the other words ("emi|d" and "dub|e" for "emile
    /// dubois"). Two names share a key unless a typing slip falls in the first three letters of every word.
    public static func blockingKeys(_ folded: String) -> [String] {
        let words = words(folded)
        guard !words.isEmpty else { return [] }
        return words.indices.map { index in
            let others = words.indices.filter { $0 != index }.map { String(words[$0].prefix(1)) }.sorted().joined()
            return String(words[index].prefix(3)) + "|" + others
        }
    }

    static func jaroWinkler(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
        if a == b { return 1 }
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        let window = max(0, max(a.count, b.count) / 2 - 1)
        var matchedA = [Bool](repeating: false, count: a.count), matchedB = [Bool](repeating: false, count: b.count)
        var matches = 0
        for i in a.indices {
            let low = max(0, i - window), high = min(b.count - 1, i + window)
            guard low <= high else { continue }
            for j in low...high where !matchedB[j] && a[i] == b[j] {
                (matchedA[i], matchedB[j]) = (true, true)
                matches += 1
                break
            }
        }
        guard matches > 0 else { return 0 }
        var transpositions = 0, k = 0
        for i in a.indices where matchedA[i] {
            while !matchedB[k] { k += 1 }
            if a[i] != b[k] { transpositions += 1 }
            k += 1
        }
        let m = Double(matches)
        let jaro = (m / Double(a.count) + m / Double(b.count) + (m - Double(transpositions / 2)) / m) / 3
        let prefix = zip(a.prefix(4), b.prefix(4)).prefix { $0 == $1 }.count
        return jaro + Double(prefix) * 0.1 * (1 - jaro)
    }
}
