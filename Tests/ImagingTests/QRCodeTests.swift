import Foundation
import Imaging
import Testing

/// Codes drawn by libqrencode, checked by their geometry (nothing is decoded): the size each version must have, the
/// quiet zone, and the three finder patterns where a reader looks for them.
struct QRCodeTests {
    /// The dark modules the SVG's path draws, by row and column inside the quiet zone.
    private func darkModules(of code: QRCode) throws -> Set<[Int]> {
        let path = try #require(code.svg.firstMatch(of: /<path d="([^"]*)"/)?.1)
        var dark: Set<[Int]> = []
        for rectangle in path.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/) {
            let (x, y, run) = (Int(rectangle.1)!, Int(rectangle.2)!, Int(rectangle.3)!)
            for column in x..<(x + run) { dark.insert([y - 4, column - 4]) }
        }
        return dark
    }

    /// A finder pattern: a dark 7 × 7 ring, a light ring inside it, a dark 3 × 3 centre.
    private func hasFinder(_ dark: Set<[Int]>, row: Int, column: Int) -> Bool {
        (0..<7).allSatisfy { r in
            (0..<7).allSatisfy { c in
                let ring = min(r, c, 6 - r, 6 - c)
                return dark.contains([row + r, column + c]) == (ring != 1)
            }
        }
    }

    @Test func anAddressIsDrawnAtTheSizeItsVersionHas() throws {
        let code = try QRCodeDrawer.draw("https://fieldbook.local:8443/", labelledBy: "address")
        // 29 bytes at level M: version 2 holds 26, version 3 holds 42.
        #expect(code.version == 3)
        #expect(code.moduleCount == 17 + 4 * code.version)
        let side = code.moduleCount + 8
        #expect(code.svg.contains("viewBox=\"0 0 \(side) \(side)\""))
        #expect(code.svg.contains("aria-labelledby=\"address\""))
        let dark = try darkModules(of: code)
        #expect(dark.allSatisfy { $0.allSatisfy { (0..<code.moduleCount).contains($0) } })
        let far = code.moduleCount - 7
        #expect(hasFinder(dark, row: 0, column: 0) && hasFinder(dark, row: 0, column: far) && hasFinder(dark, row: far, column: 0))
        #expect(!hasFinder(dark, row: far, column: far))
    }

    @Test func aLongerTextTakesALargerVersion() throws {
        let short = try QRCodeDrawer.draw("https://10.0.0.2/", labelledBy: "a")
        let long = try QRCodeDrawer.draw("https://" + String(repeating: "a", count: 200) + ".local/", labelledBy: "a")
        #expect(short.version < long.version)
        #expect(long.moduleCount == 17 + 4 * long.version)
    }

    @Test func aTextTooLongForAnyVersionIsRefused() {
        #expect(throws: QRCodeProblem.tooLong) { try QRCodeDrawer.draw(String(repeating: "x", count: 3000), labelledBy: "a") }
    }
}
