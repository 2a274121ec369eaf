import Foundation
import Storage
import Translations

/// The warning Home and the sync page show while the disk under the database runs low, before writes start to fail.
enum DiskSpaceNotice {
    static func view(_ database: AppDatabase) -> TemplateView {
        guard let free = database.freeDiskSpace, free < DiskSpace.lowThreshold else { return ["disk_space_low": false] }
        let amount = String(format: "%.1f MB", Double(free) / 1_000_000)
        let text = free < 1024 * 1024
            ? Message("The server's disk is full ({amount} free): changes cannot be saved until space is freed.", ["amount": .text(amount)])
            : Message("The server's disk is almost full ({amount} free). When it is full, changes cannot be saved.", ["amount": .text(amount)])
        return ["disk_space_low": true, "disk_space_notice": text]
    }
}
