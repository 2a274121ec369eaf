import Foundation
import ZIPFoundation
import ZipBenchmarkWork

/// ZIPFoundation 0.9.20 doing the ZIP benchmark's work.
try ZipBenchmarkWork.main(write: { path in
    try? FileManager.default.removeItem(atPath: path)
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    for member in ZipBenchmarkWork.members {
        try archive.addEntry(with: member.name, type: .file, uncompressedSize: Int64(member.contents.count),
                             compressionMethod: .deflate, bufferSize: ZipBenchmarkWork.part) { position, size in
            Data(member.contents[Int(position)..<Int(position) + size])
        }
    }
}, read: { path in
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    var sizes: [String: Int] = [:]
    for entry in archive { _ = try archive.extract(entry, bufferSize: ZipBenchmarkWork.part) { sizes[entry.path, default: 0] += $0.count } }
    return sizes
})
