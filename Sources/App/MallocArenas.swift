import CMalloc
import Foundation

/// How many malloc arenas the process keeps; the command line calls it first thing.
public enum MallocArenas {
    /// glibc gives each thread that allocates while another does an arena of its own, up to eight per core, and freed
    /// memory stays in the arena it came from. A server's threads (network, reading, waiting, sync, chores) made 15
    /// and kept about 10 MB more resident under the list benchmark (107 MB at its peak, 96–98 MB with two), at the
    /// same speed. Call it before threads start: glibc fixes its limit once a ninth arena is made.
    /// MALLOC_ARENA_MAX in the environment still wins.
    public static func limitForServing() {
        if getenv("MALLOC_ARENA_MAX") == nil { _ = fieldbook_limit_malloc_arenas(2) }
    }
}
