/// What a command found cannot be used as it is (a data folder, a database, a hub, a file), with what to do about it.
/// Its arguments were read fine, so the command line prints the description alone, without the usage, and exits
/// with status 1; InvalidInput is for arguments and settings that cannot be used.
public struct Refusal: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
