import CMalloc
import Foundation

/// How many malloc arenas the process keeps; the command line calls it first thing.
public enum MallocArenas {
    /// glibc gives each thread that allocates while another does an arena of its own, up to eight per core, and freed
    /// memory stays in the arena it came from, so a server's many threads (network, reading, waiting, sync, chores)
    /// would keep more resident than two arenas do, at the same speed (README, Benchmarks). Call it before threads
    /// start: glibc fixes its limit once a ninth arena is made.
    /// MALLOC_ARENA_MAX in the environment still wins.
    public static func limitForServing() {
        if getenv("MALLOC_ARENA_MAX") == nil { _ = fieldbook_limit_malloc_arenas(2) }
    }
}
