import CQRCode
import Foundation
import Logging

/// A QR code drawn as SVG: what a phone's camera reads to open an address.
public struct QRCode: Sendable, Equatable {
    /// The QR version libqrencode chose (1...40): the smallest that holds the text.
    public let version: Int
    /// Modules on each side, without the quiet zone: 17 + 4 × version.
    public let moduleCount: Int
    /// An `<svg>` element, dark modules as one path on a white square with the four-module quiet zone readers need.
    public let svg: String
}

/// Why a code could not be drawn, in words that say what to do.
public enum QRCodeProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case unavailable(String)
    case tooLong

    public var description: String {
        switch self {
        case .unavailable(let reason): "The QR code cannot be drawn on this machine: \(reason)."
        case .tooLong: "The text is too long for a QR code."
        }
    }
}

/// The one Swift file that calls libqrencode (through the CQRCode shim, which opens it when the first code is drawn).
public enum QRCodeDrawer {
    static let quietZone = 4

    private static let startFailure: String? = {
        guard fieldbook_qr_start() != 0 else { return nil }
        let reason = fieldbook_qr_start_failure().map { String(cString: $0) } ?? "libqrencode did not start"
        Logger(label: "fieldbook.qrcode").error("QR codes cannot be drawn: \(reason)")
        return reason
    }()

    /// `labelledBy` is the id of the element beside the code that shows the text: the code's accessible name.
    public static func draw(_ text: String, labelledBy: String) throws -> QRCode {
        if let startFailure { throw QRCodeProblem.unavailable(startFailure) }
        guard let drawn = fieldbook_qr_encode(text) else { throw QRCodeProblem.tooLong }
        defer { fieldbook_qr_release(drawn) }
        let width = Int(drawn.pointee.width)
        let modules = UnsafeBufferPointer(start: drawn.pointee.modules, count: width * width)
        return QRCode(version: Int(drawn.pointee.version), moduleCount: width,
                      svg: svg(modules: modules, width: width, labelledBy: labelledBy))
    }

    /// Each row's runs of dark modules become one rectangle of the path, which keeps the SVG a few kilobytes.
    static func svg(modules: UnsafeBufferPointer<UInt8>, width: Int, labelledBy: String) -> String {
        var path = ""
        for row in 0..<width {
            var column = 0
            while column < width {
                guard modules[row * width + column] != 0 else { column += 1; continue }
                let start = column
                while column < width, modules[row * width + column] != 0 { column += 1 }
                path += "M\(start + quietZone) \(row + quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        let side = width + 2 * quietZone
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr-code\" viewBox=\"0 0 \(side) \(side)\" "
            + "role=\"img\" aria-labelledby=\"\(labelledBy)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path d=\"\(path)\" fill=\"#000\"/></svg>"
    }
}
