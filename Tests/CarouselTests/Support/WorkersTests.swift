@testable import Carousel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The thread that made it, to compare with from a `@Sendable` closure: `pthread_t` is an
/// integer on Linux, but a pointer, which is not `Sendable`, on Darwin.
private struct ThisThread: @unchecked Sendable {
    let thread = pthread_self()
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }
}

struct WorkersTests {
    /// Every index is handed out once, whatever the number of iterations against the cores.
    @Test(arguments: [0, 1, 2, 3, 17, 1000])
    func performCallsEveryIndexOnce(_ iterations: Int) {
        let calls = Calls(iterations)
        Workers.perform(iterations: iterations) { k in calls.add(k) }
        #expect(calls.counts == Array(repeating: 1, count: iterations))
    }

    /// `start` runs its body on each thread it starts, and `join` waits for them all; a
    /// `perform` on such a thread makes every call on it, as the cores are taken already.
    @Test func startedThreadsRunAndNestedWorkStaysOnThem() {
        let calls = Calls(3)
        let nested = Calls(1)
        let index = NextSlot()
        let started = Workers.start(3) {
            let me = ThisThread()
            calls.add(index.take())
            Workers.perform(iterations: 50) { _ in
                if !me.isCurrent { nested.add(0) }
            }
        }
        #expect(started.count == 3)
        started.join()
        #expect(calls.counts == [1, 1, 1])
        #expect(nested.counts == [0])
    }

    /// Reserved threads wait for their work: `begin` runs it once on each, `release` and a
    /// reservation dropped unused let them end without it.
    @Test func reservedThreadsRunWhatTheyAreHandedOrNothing() {
        let calls = Calls(1)
        let reserved = Workers.reserve(3)
        #expect(reserved.count == 3)
        #expect(calls.counts == [0], "nothing runs before the work is handed")
        reserved.begin { calls.add(0) }
        reserved.join()
        #expect(calls.counts == [3])

        let released = Workers.reserve(2)
        released.release()
        released.join()
        do { _ = Workers.reserve(2) }
        #expect(calls.counts == [3])
    }

    /// The threads started never take SIGINT, SIGTERM or SIGHUP (the command line's handler
    /// for them must run between changes to the temporaries), and the caller's mask is left
    /// as it was.
    @Test func startedThreadsHoldBackTheEndingSignals() throws {
        try takingEndingSignals {
            let held = Calls(2)
            let started = Workers.start(2) {
                if EndingSignals.areHeldBack { held.add(0) } else { held.add(1) }
            }
            started.join()
            #expect(started.count == 2)
            #expect(held.counts == [2, 0])
            #expect(!EndingSignals.areHeldBack)
        }
    }
}

/// How many times each index was called, counted under a lock.
private final class Calls: @unchecked Sendable {
    private var storage: [Int]
    private let lock = Lock()
    init(_ count: Int) { storage = Array(repeating: 0, count: count) }
    func add(_ k: Int) { lock.lock(); storage[k] += 1; lock.unlock() }
    var counts: [Int] { lock.lock(); defer { lock.unlock() }; return storage }
}

/// 0, 1, 2 ... to the threads that ask, under a lock.
private final class NextSlot: @unchecked Sendable {
    private var next = 0
    private let lock = Lock()
    func take() -> Int { lock.lock(); defer { lock.unlock() }; next += 1; return next - 1 }
}
