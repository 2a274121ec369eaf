import Domain
import Foundation

/// A kind's form input made from what was typed for its fields alone (`VenueInput(texts)`): a surface writes such a kind
/// without naming any of its fields.
public protocol TypedInput {
    associatedtype Record
    init(_ texts: FieldTexts<Record>)
}

/// A kind declared only in Records writes the typed texts themselves, checked by its declared rules.
extension FieldTexts: TypedInput {
    public init(_ texts: FieldTexts<Record>) { self = texts }
}
