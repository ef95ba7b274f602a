#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on the platform's threads library, with a condition to wait on.
///
/// The library keeps off Foundation's `NSLock` and `NSCondition` so that, on Linux, a program
/// using it links only FoundationEssentials, not the whole of Foundation and its ICU data,
/// which take a few milliseconds to load at every start (docs/behaviour.md, *Start-up*).
///
/// `@unchecked Sendable`: the mutex and condition are made for sharing between threads, and
/// live at fixed addresses for the lock's life.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock, which the caller holds, until ``broadcast()`` wakes the thread,
    /// then takes it again. A wake may come without a broadcast: callers wait in a loop.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread waiting in ``wait()``.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// The C library's calls that this library's own `read` and `write` methods would hide.
enum POSIX {
    #if canImport(Glibc)
    static let read = Glibc.read
    static let write = Glibc.write
    #elseif canImport(Musl)
    static let read = Musl.read
    static let write = Musl.write
    #else
    static let read = Darwin.read
    static let write = Darwin.write
    #endif
}

extension POSIX {
    /// Whether `bytes` of memory can be had now: `malloc` says when it has none to give (a run
    /// under an address-space limit, `ulimit -v`), where an array's allocation ends the run
    /// with `Fatal error: failed to allocate` and a backtrace. The block is given back at
    /// once; the allocation that follows takes its place.
    static func canAllocate(_ bytes: Int) -> Bool {
        guard let block = malloc(max(bytes, 1)) else { return false }
        free(block)
        return true
    }

    /// `bytes` in MiB, rounded up, for messages: `256 MiB`.
    static func mebibytes(_ bytes: Int) -> String { "\((bytes + (1 << 20) - 1) >> 20) MiB" }
}
