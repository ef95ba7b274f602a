#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's settings for a run of the command-line tool, on glibc; elsewhere
/// (macOS, musl) the allocator keeps its defaults.
///
/// A render makes a frame picture (3 MB at 1125x665) and a few buffers of that order for
/// every frame, on one worker thread a core, and frees them a frame or two later. With
/// glibc's defaults each worker allocates from an arena of its own, and a freed picture
/// often goes back to the kernel (the trim threshold follows the largest block freed), so
/// the next one starts on fresh pages: a page fault and a cleared page every 4 KiB. Here
/// every thread shares one arena, so a block one worker frees serves the next picture on
/// either; blocks up to 8 MiB come from it rather than from `mmap`, and it keeps up to
/// 32 MiB of free memory at its top rather than giving it back. Between two allocations a
/// worker spends milliseconds on pixels, so the arena's lock is not contended. The library
/// leaves the allocator to the program that links it. Measurements are in
/// docs/behaviour.md ("The allocator").
enum Allocator {
    /// Applies the settings; call once, first thing in `main`, before any thread starts.
    static func configure() {
        #if canImport(Glibc)
        // `mallopt` and its parameters are declared in <malloc.h>, which the Glibc module
        // does not include: the function is looked up by name, and the parameters are
        // <malloc.h>'s values (M_TRIM_THRESHOLD -1, M_MMAP_THRESHOLD -3, M_ARENA_MAX -8),
        // which are part of glibc's interface.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-8, 1)
        _ = mallopt(-3, 8 << 20)
        _ = mallopt(-1, 32 << 20)
        #endif
    }
}
