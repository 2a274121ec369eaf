import Foundation

/// Decompresses gzip data with the system's `gzip`, an implementation independent of Fieldbook's, so a test shows that
/// what Fieldbook sends is gzip as other tools read it.
public func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    try filtered(bytes, through: "/bin/gzip", ["-dc"])
}

/// `bytes` through a program's standard input, its standard output back; throws when the program refuses them.
func filtered(_ bytes: [UInt8], through executable: String, _ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Written from another thread: a large input would otherwise fill the pipe while its output waits unread.
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw GunzipError.refused(status: process.terminationStatus) }
    return Array(data)
}

public enum GunzipError: Error {
    case refused(status: Int32)
}
