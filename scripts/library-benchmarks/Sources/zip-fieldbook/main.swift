import Archives
import Foundation
import ZipBenchmarkWork

/// Fieldbook's ZipArchiveWriter and ZipArchiveReader (Sources/Archives) doing the ZIP benchmark's work.
try ZipBenchmarkWork.main(write: { path in
    FileManager.default.createFile(atPath: path, contents: nil)
    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? file.close() }
    var writer = ZipArchiveWriter()
    for member in ZipBenchmarkWork.members {
        try file.write(contentsOf: try writer.beginMember(member.name))
        for piece in ZipBenchmarkWork.parts(member.contents) { try file.write(contentsOf: try writer.write(Array(piece))) }
    }
    try file.write(contentsOf: try writer.finish())
}, read: { path in
    let reader = try ZipArchiveReader(path: path)
    var sizes: [String: Int] = [:]
    for member in reader.members { try reader.read(member.name) { sizes[member.name, default: 0] += $0.count } }
    return sizes
})
