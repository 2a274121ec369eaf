import Foundation
import Testing

/// Pages build typed views (`TemplateView`, `TemplateValue`): no view of values of unknown type is left for the renderer
/// to cast or reflect.
@Suite struct ViewTypeTests {
    static let webUI = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebUI")

    @Test func pageCodeHasNoUntypedViews() throws {
        let files = FileManager.default.enumerator(at: Self.webUI, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 40)
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for untyped in ["String: Any]", "Mirror("] {
                #expect(!source.contains(untyped), "\(file.lastPathComponent) holds \(untyped)")
            }
        }
    }
}
