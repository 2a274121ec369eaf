import Foundation

/// Real image files for photo tests (Tests/Fixtures/photos), made by a camera-like encoder: a JPEG with GPS EXIF and an
/// orientation tag, a PNG named .jpg, a 50-megapixel JPEG.
public enum PhotoFixtures {
    public static let withGPS = "gps-orientation.jpg"
    public static let pngNamedJPEG = "png-named-as.jpg"
    public static let fiftyMegapixels = "fifty-megapixels.jpg"
    /// A phone's HEIC (made with libheif's heif-enc), read by libvips's libheif module.
    public static let heic = "phone.heic"
    /// A 16-bit RGBA PNG, 40 × 30, whose left half is transparent (made with Python's zlib, no image library).
    public static let transparent16Bit = "transparent-16-bit.png"

    public static func url(_ name: String) -> URL {
        FieldbookProcess.repositoryRoot.appendingPathComponent("Tests/Fixtures/photos").appendingPathComponent(name)
    }

    public static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name))) }

    public static func bytesAt(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The JPEG cut off part way, as a broken transfer leaves it.
    public static func truncatedJPEG() throws -> [UInt8] {
        let whole = try bytes(withGPS)
        return Array(whole.prefix(whole.count * 2 / 3))
    }

    /// The number of colour components a baseline or progressive JPEG's frame header declares (3 for sRGB, 1 for grey).
    public static func jpegComponents(_ jpeg: [UInt8]) -> Int? {
        var index = 2
        while index + 9 < jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xC0 || marker == 0xC2 { return Int(jpeg[index + 9]) }
            index += 2 + Int(jpeg[index + 2]) << 8 + Int(jpeg[index + 3])
        }
        return nil
    }

    /// True when a JPEG carries an APP1 segment (EXIF or XMP) or the word "GPS" anywhere.
    public static func carriesMetadata(_ jpeg: [UInt8]) -> Bool {
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xE1 { return true }
            if marker == 0xDA { break }
            index += 2 + Int(jpeg[index + 2]) << 8 + Int(jpeg[index + 3])
        }
        return jpeg.indices.dropLast(2).contains { jpeg[$0] == 0x47 && jpeg[$0 + 1] == 0x50 && jpeg[$0 + 2] == 0x53 }
    }
}
