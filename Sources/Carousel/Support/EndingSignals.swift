#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals that end a run of the command line with the output's temporaries removed:
/// SIGINT, SIGTERM and SIGHUP (spec section 5c), and the others that end a process and are
/// not a crash: SIGQUIT (`Ctrl-\`, which the Swift runtime's crash handler otherwise takes,
/// and the run went on), SIGXCPU (a soft CPU-time limit, `ulimit -S -t`), SIGALRM and
/// SIGVTALRM. The run exits with 128 + the signal. SIGUSR1 and SIGUSR2 are left out: that
/// crash handler sends them to the process's own threads to stop them while it writes its
/// report, and the thread that takes these signals would have taken them as an end.
///
/// The command line takes them on a thread of its own. Where the system gives it none, a
/// handler takes them on whichever thread they reach, and that handler may not take a lock.
/// So the threads ``Workers`` starts never take them, and a change to the registered
/// temporaries is made with them held back on the thread making it (``holding(_:)``): the
/// handler then runs only between changes, never halfway through one.
package enum EndingSignals {
    package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGALRM, SIGVTALRM]

    /// The signals as a set.
    package static var set: sigset_t { Self.set(of: numbers) }

    /// `signals` as a set.
    package static func set(of signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }

    /// Runs `body` with the signals held back on this thread; one that comes meanwhile
    /// is taken once the mask is back as it was.
    package static func holding<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var ending = set, previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &ending, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Whether signal `number` is set to be ignored (`SIG_IGN`) in this process, as it is
    /// in a process started with it ignored until something sets it otherwise.
    package static func isIgnored(_ number: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Darwin)
        var action = SignalAction()
        guard sigaction(number, nil, &action) == 0, action.sa_flags & Int32(SA_SIGINFO) == 0 else { return false }
        return unsafeBitCast(action.plainHandler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        return false
        #endif
    }

    /// Whether this thread holds back all of the signals.
    package static var areHeldBack: Bool {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return numbers.allSatisfy { sigismember(&mask, $0) == 1 }
    }
}
