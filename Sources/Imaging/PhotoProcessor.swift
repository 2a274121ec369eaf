import CVips
import Foundation
import Logging

/// A photo made fit to keep: upright, stripped of its metadata, as a display size and a thumbnail (both JPEG).
public struct PreparedPhoto: Sendable {
    public let display: EncodedImage
    public let thumbnail: EncodedImage
    /// The day the camera says it was taken (EXIF DateTimeOriginal), `yyyy-MM-dd`, when it says.
    public let takenOn: String?
    /// The format the upload was found to be, by its content ("JPEG", "PNG", "WebP", "HEIC").
    public let format: String
}

public struct EncodedImage: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
}

/// Why an upload is not kept, in words that say what to do.
public enum PhotoProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case notAPicture
    case damaged
    case tooLarge(width: Int, height: Int)
    case cannotProcess

    public var description: String {
        switch self {
        case .notAPicture:
            "This file is not a photo Fieldbook can read. Choose a JPEG, PNG, WebP or HEIC photo (whatever its name says, the file's content decides)."
        case .damaged:
            "This photo is damaged or incomplete, so it cannot be read. Copy or export it from the camera again, then upload the new copy."
        case .tooLarge(let width, let height):
            "This picture is \(width) × \(height) pixels, more than the \(PhotoProcessor.maxMegapixels) megapixels Fieldbook takes. Make it smaller, then upload it again."
        case .cannotProcess:
            "The photo could not be processed on this machine. Try again; if it keeps failing, tell your administrator."
        }
    }
}

/// The one Swift file that calls libvips (through the CVips shim). Uploads are judged by their content: the loader is
/// chosen from the file's first bytes, the whole image is decoded (a damaged file fails here, not in a browser), and
/// what is kept is re-encoded, so nothing of the original file (its EXIF, its GPS position) reaches disk.
public enum PhotoProcessor {
    /// The longest side of the size photos are shown at, and of their thumbnails, in pixels.
    public static let displaySize = 1600
    public static let thumbnailSize = 400
    /// Larger pictures are refused before any pixel is decoded (a 100,000 × 100,000 PNG is a few kilobytes).
    public static let maxMegapixels = 100
    static let quality: Int32 = 82

    /// Formats taken, by the libvips loader that reads them.
    private static let formats: [(loader: String, name: String)] = [
        ("Jpeg", "JPEG"), ("Png", "PNG"), ("Webp", "WebP"), ("Heif", "HEIC"),
    ]

    /// Why photos cannot be processed on this machine (libvips missing, or too old), or nil when they can. libvips is
    /// opened by the first photo (see CVips.h), so a machine without it still serves everything else; files received
    /// as photos are then not judged at all (`PhotoFileRules.checkReceived`, in Hub), rather than refused.
    public static var unavailableReason: String? { startFailure }

    private static let startFailure: String? = {
        guard fieldbook_vips_start() != 0 else { return nil }
        let reason = fieldbook_vips_start_failure().map { String(cString: $0) } ?? "libvips did not start"
        Logger(label: "fieldbook.photos").error("Photos cannot be processed: \(reason)")
        return reason
    }()

    private static var started: Bool { startFailure == nil }

    /// Reads the file at `path` and makes the display size and thumbnail.
    public static func prepare(path: String) throws -> PreparedPhoto {
        guard started else { throw PhotoProblem.cannotProcess }
        guard let loader = fieldbook_vips_loader(path).map({ String(cString: $0) }),
              let format = formats.first(where: { loader.contains($0.loader) })?.name else {
            fieldbook_vips_take_error_discarding()
            throw PhotoProblem.notAPicture
        }
        guard let header = fieldbook_vips_header(path) else { throw failure(.damaged) }
        defer { fieldbook_vips_release(header) }
        let width = Int(fieldbook_vips_width(header)), height = Int(fieldbook_vips_height(header))
        guard width * height <= maxMegapixels * 1_000_000 else { throw PhotoProblem.tooLarge(width: width, height: height) }
        let takenOn = fieldbook_vips_text(header, "exif-ifd2-DateTimeOriginal").flatMap { exifDay(String(cString: $0)) }

        var fitted: OpaquePointer?
        guard fieldbook_vips_fit_file(path, Int32(displaySize), &fitted) == 0, let fitted else { throw failure(.damaged) }
        defer { fieldbook_vips_release(fitted) }
        let display = try jpeg(fitted, damaged: .damaged)
        let thumbnail = try display.bytes.withUnsafeBytes { buffer -> EncodedImage in
            var small: OpaquePointer?
            guard fieldbook_vips_fit_buffer(buffer.baseAddress, buffer.count, Int32(thumbnailSize), &small) == 0, let small else {
                throw failure(.cannotProcess)
            }
            defer { fieldbook_vips_release(small) }
            return try jpeg(small, damaged: .cannotProcess)
        }
        return PreparedPhoto(display: display, thumbnail: thumbnail, takenOn: takenOn, format: format)
    }

    /// True for bytes as Fieldbook keeps a photo: a JPEG without metadata. Files that arrive from another Fieldbook (a
    /// sync, a restored export) are checked so, since they are kept as they came: a hand-made file cannot bring a GPS
    /// position, or something that is not a photo, past the upload's re-encoding.
    public static func isKeptPhoto(_ bytes: [UInt8]) -> Bool {
        guard started else { return false }
        return bytes.withUnsafeBytes { buffer -> Bool in
            var loader: UnsafePointer<CChar>?
            guard let header = fieldbook_vips_buffer_header(buffer.baseAddress, buffer.count, &loader), let loader else {
                fieldbook_vips_take_error_discarding()
                return false
            }
            defer { fieldbook_vips_release(header) }
            return String(cString: loader).contains("Jpeg") && fieldbook_vips_has_metadata(header) == 0
        }
    }

    /// Encodes the image as a metadata-free JPEG. Pixels are decoded here (libvips is lazy), so a damaged file fails here.
    private static func jpeg(_ image: OpaquePointer, damaged: PhotoProblem) throws -> EncodedImage {
        var srgb: OpaquePointer?
        guard fieldbook_vips_to_srgb(image, &srgb) == 0, let srgb else { throw failure(.cannotProcess) }
        defer { fieldbook_vips_release(srgb) }
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard fieldbook_vips_jpeg(srgb, quality, &bytes, &length) == 0, let bytes else { throw failure(damaged) }
        defer { fieldbook_vips_free(bytes) }
        return EncodedImage(bytes: Array(UnsafeRawBufferPointer(start: bytes, count: length)),
                            width: Int(fieldbook_vips_width(srgb)), height: Int(fieldbook_vips_height(srgb)))
    }

    /// The problem, with what libvips said cleared from its error buffer (read by the caller's log, if any).
    private static func failure(_ problem: PhotoProblem) -> PhotoProblem {
        fieldbook_vips_take_error_discarding()
        return problem
    }

    /// `2024:05:01 10:00:00 (…)` → `2024-05-01`; nil for a camera whose clock was never set (`0000:00:00`).
    package static func exifDay(_ text: String) -> String? {
        let digits = Array(text.prefix(10))
        guard digits.count == 10, digits[4] == ":", digits[7] == ":" else { return nil }
        let day = String(digits[0..<4]) + "-" + String(digits[5..<7]) + "-" + String(digits[8..<10])
        guard day.allSatisfy({ $0.isNumber || $0 == "-" }), !day.hasPrefix("0000") else { return nil }
        return day
    }
}

private func fieldbook_vips_take_error_discarding() {
    var buffer = [CChar](repeating: 0, count: 512)
    fieldbook_vips_take_error(&buffer, buffer.count)
}
