import Foundation

/// Why a photo file was not kept: the rules themselves are `PhotoFileRules` (Hub); the error is here so a node's sync
/// can tell the cases apart without depending on Hub.
public enum PhotoFileError: Error, CustomStringConvertible {
    case cannotWrite(String)
    /// Bytes sent as a file whose hash they do not have (cut short, or changed on the way).
    case hashMismatch(expected: String, actual: String)
    /// Bytes that are not a JPEG without metadata, the only form Fieldbook keeps a photo in.
    case notAKeptPhoto
    /// Photos cannot be checked on this machine (libvips missing or too old): the file is neither kept nor refused.
    case cannotCheck(String)

    public var description: String {
        switch self {
        case .cannotWrite(let reason): "The photo could not be saved on this machine (\(reason)). Free some disk space and try again."
        case .hashMismatch(let expected, let actual):
            "The file's SHA-256 is \(actual), not \(expected): it was cut short or changed on the way. Send it again."
        case .notAKeptPhoto: "The file is not a photo as Fieldbook keeps them (a JPEG without metadata), so it was not kept."
        case .cannotCheck(let reason):
            "Photos cannot be checked on this machine (\(reason)), so the file was not kept. Install libvips, then send it again."
        }
    }
}
