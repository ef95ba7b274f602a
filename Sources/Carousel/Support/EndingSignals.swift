#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP: the signals that end a run of the command line with the
/// output's temporaries removed (spec section 5c).
///
/// The command line takes them on a thread of its own. Where the system gives it none, a
/// handler takes them on whichever thread they reach, and that handler may not take a lock.
/// So the threads ``Workers`` starts never take them, and a change to the registered
/// temporaries is made with them held back on the thread making it (``holding(_:)``): the
/// handler then runs only between changes, never halfway through one.
package enum EndingSignals {
    package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The three signals as a set.
    package static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }

    /// Runs `body` with the three signals held back on this thread; one that comes meanwhile
    /// is taken once the mask is back as it was.
    package static func holding<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var ending = set, previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &ending, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Whether this thread holds back all three signals.
    package static var areHeldBack: Bool {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return numbers.allSatisfy { sigismember(&mask, $0) == 1 }
    }
}
