import Domain
import Foundation
import GRDB

/// Where an import is: waiting for review, waiting for or being written, or over.
public enum ImportState: String, Sendable {
    case preview, queued, running, done, cancelled, failed

    public var isOver: Bool { self == .done || self == .cancelled || self == .failed }
}

/// What happens to one row of an import.
public enum ImportDecision: String, Sendable, CaseIterable {
    /// A new participant.
    case create
    /// The file's values written over the participant the row matches (its empty cells keep what is stored).
    case merge
    /// Left out.
    case skip
}

/// Why a row may be a record Fieldbook already has, or one an earlier row of the file names.
public enum ImportMatchReason: String, Sendable, CaseIterable {
    /// The row's Fieldbook id is a stored record's (a file exported from Fieldbook).
    case sameID = "id"
    /// The kind's strong key: a participant's email, a venue's name and address, an activity's name and start date
    /// (case and accents ignored).
    case sameKey = "key"
    /// The same name once folded as search folds it (case and accents ignored).
    case sameName = "name"
    /// Every value the same as an earlier row's.
    case sameAsRow = "same_row"
    /// The same Fieldbook id as an earlier row.
    case idOfRow = "row_id"
    case keyOfRow = "row_key"
    case nameOfRow = "row_name"
    /// A name close to a stored record's, or to an earlier row's (`NameSimilarity`): typed differently, perhaps the same.
    case similarName = "similar"
    case similarToRow = "row_similar"

    /// The match is an earlier row of the file, not a stored record.
    public var isEarlierRow: Bool {
        self == .sameAsRow || self == .keyOfRow || self == .nameOfRow || self == .idOfRow || self == .similarToRow
    }

    /// The row's id is taken (stored, or an earlier row's), so it can be merged or skipped but never added.
    var idTaken: Bool { self == .sameID || self == .idOfRow }
}

/// An uploaded file waiting for review, being imported, or imported.
public struct ImportJob: Sendable {
    public let id: UUID
    public let target: ImportTarget
    public let fileName: String
    public let createdBy: UUID
    public let createdAt: Date
    public let headers: [String]
    public let mapping: ImportMapping
    public let separator: CSVReader.Separator
    /// The file was not UTF-8 and was read as Windows-1252.
    public let windows1252: Bool
    public let rowCount: Int
    public let state: ImportState
    public let created: Int
    public let merged: Int
    public let skipped: Int
    public let finishedAt: Date?
    /// Why the import failed, for the person who started it.
    public let failure: String?
    /// For a restore of a Fieldbook archive: its files, in the order they are written (nil for a CSV import).
    public let archive: [ArchiveEntry]?
    let archivePath: String?
    /// What a finished restore has to say beyond its counts (visit lists given to the person restoring).
    public let note: String?
    /// The records the rows name that are not here, by field, as the last check found them.
    public let missing: [MissingReferences]
    /// Which of them the import creates, as the person chose.
    public let creating: ImportCreating

    init(row: Row) {
        id = row.uuid("id")
        target = ImportTarget(rawValue: row["kind"]) ?? .participants
        fileName = row["file_name"]
        createdBy = row.uuid("created_by")
        createdAt = row.storedDate("created_at")
        headers = ImportJSON.strings(row["headers"])
        mapping = ImportMapping(fields: ImportJSON.strings(row["mapping"]).map { ImportField(rawValue: $0) })
        separator = CSVReader.Separator.allCases.first { $0.name == row["separator"] as String } ?? .comma
        windows1252 = row["windows_1252"]
        rowCount = row["row_count"]
        state = ImportState(rawValue: row["state"]) ?? .failed
        created = row["created_count"]
        merged = row["merged_count"]
        skipped = row["skipped_count"]
        finishedAt = (row["finished_at"] as String?) == nil ? nil : row.storedDate("finished_at")
        failure = row["failure"]
        archivePath = row["archive_path"]
        archive = (row["archive_files"] as String?).flatMap { try? JSONDecoder().decode([ArchiveEntry].self, from: Data($0.utf8)) }
        note = row["note"]
        missing = ImportJSON.decoded(row["missing"]) ?? []
        creating = ImportJSON.decoded(row["creating"]) ?? ImportCreating()
    }
}

/// One row of an import as the review shows it.
public struct ImportRow: Sendable {
    /// The row's line in the file, the header row being line 1 (as a spreadsheet numbers it).
    public let line: Int
    /// The cells as the file has them.
    public let cells: [String]
    public let values: ImportedRow
    /// Problems that keep the row out, worded as the participant form words them.
    public let errors: [FieldError]
    public let matchReason: ImportMatchReason?
    /// The participant the row matches, stored or to be created by an earlier row.
    public let matchId: UUID?
    public let matchLine: Int?
    /// The stored match's name and what tells it apart (a participant's email, a venue's address, an activity's start).
    public let matchName: String?
    public let matchDetail: String?
    public let decision: ImportDecision
    /// Fields whose stored value a merge keeps although the file has another (chosen field by field).
    public let keptFields: Set<ImportField>

    /// Whether the row can be compared field by field with a stored record it would merge into.
    public var comparesWithStored: Bool {
        errors.isEmpty && matchId != nil && !(matchReason?.isEarlierRow ?? true)
    }

    /// The choices the row offers: none but skipping while it has problems, merging only when it matches a record.
    public var choices: [ImportDecision] {
        if !errors.isEmpty { return [.skip] }
        if matchReason?.idTaken == true { return [.merge, .skip] }
        return matchId == nil ? [.create, .skip] : ImportDecision.allCases
    }
}

/// How many rows of an import go each way.
public struct ImportSummary: Sendable, Equatable {
    public var toCreate = 0
    public var toMerge = 0
    public var toSkip = 0
    public var withProblems = 0
    public var possibleDuplicates = 0
}

/// Which rows the review lists.
public enum ImportRowFilter: String, Sendable, CaseIterable {
    case all, problems, duplicates
}

/// Text arrays (headers, cells, the mapping) as the import tables hold them: JSON.
enum ImportJSON {
    static func text(_ strings: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func strings(_ text: String?) -> [String] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// The fields a JSON array names (unknown names left out).
    static func fields(_ text: String?) -> Set<ImportField> { Set(strings(text).compactMap(ImportField.init)) }

    static func encoded<Value: Encodable>(_ value: Value) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    static func decoded<Value: Decodable>(_ text: String?) -> Value? {
        text.flatMap { try? JSONDecoder().decode(Value.self, from: Data($0.utf8)) }
    }

    static func errors(_ text: String?) -> [FieldError] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([FieldError].self, from: Data(text.utf8))) ?? []
    }

    static func text(_ errors: [FieldError]) -> String? {
        errors.isEmpty ? nil : String(decoding: (try? JSONEncoder().encode(errors)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
