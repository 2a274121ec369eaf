import Foundation
import Imaging
import TestSupport
import Testing

/// Real files through libvips: judged by content, made upright, stripped of metadata.
struct PhotoProcessorTests {
    private func prepared(_ bytes: [UInt8], named name: String = "upload.jpg") throws -> PreparedPhoto {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString)-\(name)").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try PhotoProcessor.prepare(path: path)
    }

    @Test func aPhotoWithGPSLosesItsMetadataAndIsTurnedUpright() throws {
        let original = try PhotoFixtures.bytes(PhotoFixtures.withGPS)
        #expect(PhotoFixtures.carriesMetadata(original))
        let photo = try prepared(original)
        #expect(photo.format == "JPEG")
        #expect(!PhotoFixtures.carriesMetadata(photo.display.bytes))
        #expect(!PhotoFixtures.carriesMetadata(photo.thumbnail.bytes))
        // 120 × 80 with orientation 6 (turned a quarter clockwise) is 80 × 120 upright.
        #expect(photo.display.width == 80 && photo.display.height == 120)
        #expect(photo.takenOn == "2024-05-01")
    }

    @Test func aPNGNamedJPEGIsReadAsWhatItIs() throws {
        let photo = try prepared(try PhotoFixtures.bytes(PhotoFixtures.pngNamedJPEG))
        #expect(photo.format == "PNG")
        #expect(Array(photo.display.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(photo.display.width == 64 && photo.display.height == 48)
        #expect(photo.takenOn == nil)
    }

    @Test func aPhonesHEICIsReadAndKeptAsJPEG() throws {
        let photo = try prepared(try PhotoFixtures.bytes(PhotoFixtures.heic), named: "IMG_0042.HEIC")
        #expect(photo.format == "HEIC")
        #expect(Array(photo.display.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(photo.display.width == 96 && photo.display.height == 64)
    }

    /// Runs the transparency branch (flattening onto white, then the cast to 8 bits) through libvips as opened by dlopen.
    @Test func aTransparentSixteenBitPNGIsKeptAsAnEightBitColourJPEG() throws {
        let photo = try prepared(try PhotoFixtures.bytes(PhotoFixtures.transparent16Bit), named: "logo.png")
        #expect(photo.format == "PNG")
        #expect(Array(photo.display.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(PhotoFixtures.jpegComponents(photo.display.bytes) == 3)
        #expect(photo.display.width == 40 && photo.display.height == 30)
        #expect(PhotoProcessor.isKeptPhoto(photo.display.bytes) && PhotoProcessor.isKeptPhoto(photo.thumbnail.bytes))
    }

    @Test func aFiftyMegapixelPhotoIsShrunkToTheDisplayAndThumbnailSizes() throws {
        let photo = try prepared(try PhotoFixtures.bytes(PhotoFixtures.fiftyMegapixels))
        #expect(photo.display.width == PhotoProcessor.displaySize)
        #expect(photo.display.height == 1067)
        #expect(max(photo.thumbnail.width, photo.thumbnail.height) == PhotoProcessor.thumbnailSize)
    }

    @Test func aTruncatedJPEGIsRefusedAsDamaged() throws {
        #expect(throws: PhotoProblem.damaged) { try prepared(try PhotoFixtures.truncatedJPEG()) }
    }

    @Test func textNamedJPEGIsRefusedAsNotAPicture() throws {
        #expect(throws: PhotoProblem.notAPicture) { try prepared(Array("<html><body>not a photo</body></html>".utf8)) }
        #expect(throws: PhotoProblem.notAPicture) { try prepared([]) }
    }

    @Test func exifDaysAreReadAndUnsetClocksIgnored() {
        #expect(PhotoProcessor.exifDay("2019:12:31 23:59:59 (2019:12:31 23:59:59, ASCII, 20 components, 20 bytes)") == "2019-12-31")
        #expect(PhotoProcessor.exifDay("0000:00:00 00:00:00") == nil)
        #expect(PhotoProcessor.exifDay("garbage") == nil)
    }
}
