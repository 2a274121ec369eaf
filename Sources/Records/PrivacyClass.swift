/// A personal detail the node's privacy setting may hide from a viewer (read-only users): how to reach a person, what was
/// noted about them, where they live.
public enum PrivacyClass: String, Sendable, CaseIterable {
    case contacts, notes, homes
}

extension RecordKind {
    /// The columns a viewer who sees only the personal details `seen` may not see: what exports leave out and pages and
    /// the API show as hidden.
    public func hiddenColumns(seeing seen: Set<PrivacyClass>) -> Set<String> {
        Set(fields.filter { field in field.privacy.map { !seen.contains($0) } ?? false }.map(\.column))
    }
}
