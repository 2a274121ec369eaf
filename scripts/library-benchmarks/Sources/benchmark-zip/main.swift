import BenchmarkTiming
import Foundation
import ZipBenchmarkWork

/// Fieldbook's ZIP writer and reader against ZIPFoundation 0.9.20, each in its own program (zip-fieldbook,
/// zip-zipfoundation, beside this one), run in turns.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-zip-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let programs = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let fieldbook = programs.appendingPathComponent("zip-fieldbook").path, library = programs.appendingPathComponent("zip-zipfoundation").path
let fieldbookArchive = folder.appendingPathComponent("fieldbook.zip").path, libraryArchive = folder.appendingPathComponent("zipfoundation.zip").path

func run(_ program: String, _ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    defer { process.waitUntilExit() }
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
}

_ = try run(fieldbook, "write", fieldbookArchive)
_ = try run(library, "write", libraryArchive)
let expected = ZipBenchmarkWork.members.sorted { $0.name < $1.name }.map { "\($0.name) \($0.contents.count)\n" }.joined()
// Each reads the other's archive: the figures are for archives both understand.
requireSame(try run(fieldbook, "sizes", libraryArchive), expected, "Fieldbook reading ZIPFoundation's archive")
requireSame(try run(library, "sizes", fieldbookArchive), expected, "ZIPFoundation reading Fieldbook's archive")
func kib(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024 }
print("\(ZipBenchmarkWork.members.count) JSON members, \(ZipBenchmarkWork.members.reduce(0) { $0 + $1.contents.count } / 1024) KiB; "
      + "archives: Fieldbook's \(kib(fieldbookArchive)) KiB, ZIPFoundation's \(kib(libraryArchive)) KiB")
try SideBySide("Write the archive to a file", rounds: 5, repetitions: 3).run(
    .init("Fieldbook's ZipArchiveWriter", program: fieldbook, ["write", fieldbookArchive]),
    .init("ZIPFoundation 0.9.20", program: library, ["write", libraryArchive]))
try SideBySide("Read every member back (Fieldbook's archive)", rounds: 5, repetitions: 3).run(
    .init("Fieldbook's ZipArchiveReader", program: fieldbook, ["read", fieldbookArchive]),
    .init("ZIPFoundation 0.9.20", program: library, ["read", fieldbookArchive]))
