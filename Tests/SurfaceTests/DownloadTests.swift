import Foundation
import Synchronization
import HTTPServer
import Surface
import Testing

/// Downloads written while they download: a limit on how many at once, the slot given back when one ends, and an
/// error part way ending the response as failed.
@Suite struct DownloadTests {
    func drained(_ response: Response) throws -> (bytes: [UInt8], failed: Bool) {
        let stream = try #require(response.stream)
        return try #require(stream.readToEnd(), "the download did not end")
    }

    @Test func aThirdDownloadAtOnceIsAskedToWaitAndAFinishedOneGivesItsSlotBack() throws {
        let slots = DownloadSlots(limit: 2)
        #expect(slots.take() && slots.take())
        do {
            _ = try Download.list("participants", .csv, slots: slots, failed: { _ in }) { _ in 0 }
            Issue.record("a third download was started")
        } catch let error as HTTPError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.publicMessage == "Two downloads are being written already. Try again when one of them has finished.")
        }
        slots.release()
        let answer = try Download.list("participants", .csv, slots: slots, failed: { _ in }) { write in
            _ = write(Array("id,name\r\n".utf8))
            return 0
        }
        #expect(answer.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(try drained(answer).bytes == Array("id,name\r\n".utf8))
        let deadline = Date().addingTimeInterval(5)
        while !slots.take(), Date() < deadline { usleep(2_000) }  // the finished download's slot comes back
        #expect(!slots.take())
    }

    @Test func anErrorPartWayEndsTheDownloadAsFailed() throws {
        struct Broken: Error {}
        let heard = Mutex(false)
        let answer = try Download.list("venues", .json, slots: DownloadSlots(limit: 2), failed: { _ in heard.withLock { $0 = true } }) { write in
            _ = write(Array("[{\"id\":".utf8))
            throw Broken()
        }
        let (_, failed) = try drained(answer)
        #expect(failed)
        #expect(heard.withLock { $0 })
    }

    /// A download's stream closed by anything but its writer's finish (the server stopping) ends as failed.
    @Test func aDownloadEndsCompleteOnlyWhenItsWriterFinishes() throws {
        let finished = EventStream(endsOnlyWhenFinished: true)
        finished.send("id\r\n")
        finished.finish()
        #expect(finished.readToEnd()?.failed == false)
        let cut = EventStream(endsOnlyWhenFinished: true)
        cut.send("id\r\n")
        cut.close()
        cut.finish()
        #expect(cut.readToEnd()?.failed == true)
        let events = EventStream()
        events.close()
        #expect(events.readToEnd()?.failed == false)
    }
}
