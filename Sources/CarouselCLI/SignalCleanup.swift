import Carousel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the output's temporary file or folder when a signal ends the run (spec section 5c).
///
/// SIGINT, SIGTERM, SIGHUP and the other signals of ``EndingSignals`` are taken on a thread of
/// their own, away from the frames being made: the temporaries are removed and the process
/// exits with 128 + the signal (130, 143, 129 for the first three), or with 0 where the
/// output was already in place (a signal while the previous frames folder is being removed).
/// A crash signal (and SIGSYS, a system call refused) removes them with async-signal-safe
/// calls and then goes on to the handler that was there before (Swift's crash report).
enum SignalCleanup {
    /// Held by the cleanup of a signal from its start to the exit that ends it.
    private static let cleanup = Lock()

    /// Installs the handlers; call once, before any output is written and any thread started.
    static func install() {
        // The ending signals are blocked here, before any other thread starts, so every
        // thread inherits the mask and they wait for the thread of their own that takes
        // them with `sigwait`. That thread is started now, while one can be had: Dispatch's
        // signal sources, used before, needed a thread of its pool when the run began, and
        // where the system gave none (address space used up under `ulimit -v`) the run hung
        // before it read an argument.
        //
        // A signal this run was started with set to be ignored stays ignored, as programs
        // that take signals have long done: `nohup` starts a run with SIGHUP ignored so that
        // it outlives the terminal, and a shell starts a job in the background (`&`, in a
        // script or a Makefile) with SIGINT and SIGQUIT ignored so that Ctrl-C leaves it
        // running. Before, the thread below took them all the same, and the run ended.
        // Such a signal is held back with the others and never taken: with the signal thread
        // it stays pending; where a handler takes the others, unblocking them discards it.
        let taken = EndingSignals.numbers.filter { !EndingSignals.isIgnored($0) }
        var ending = EndingSignals.set
        pthread_sigmask(SIG_BLOCK, &ending, nil)
        if !taken.isEmpty, Workers.start(1, { waitForEndingSignal(taken) }).count == 0 {
            // No thread: a handler takes them, removing the temporaries with the
            // async-signal-safe calls of a crash's cleanup. It runs on this thread, the only
            // one not holding them back (``Workers`` starts its threads so), and between two
            // changes to the temporaries, which hold them back while they are made.
            TemporaryFiles.prepareForCrashCleanup()
            for signalNumber in taken {
                signal(signalNumber) { number in
                    _exit(TemporaryFiles.removeAllFromSignalHandler() ? 0 : 128 + number)
                }
            }
            pthread_sigmask(SIG_UNBLOCK, &ending, nil)
        }
        // A reader that closes its end of the pipe (`carousel render -o - --format gif | head`,
        // a FIFO's reader quitting) makes the write fail with EPIPE, reported as one line and
        // exit 1 like any other write error, rather than SIGPIPE ending the process unheard.
        signal(SIGPIPE, SIG_IGN)
        // So does a file grown past the size limit (`ulimit -f`): the write fails with EFBIG,
        // one line and exit 1 with the temporary removed, rather than SIGXFSZ ending the
        // process silently and leaving it.
        signal(SIGXFSZ, SIG_IGN)
        #if canImport(Glibc) || canImport(Darwin)
        installCrashHandlers()
        #endif
    }

    /// Waits for a signal's cleanup that is under way; it ends the process, so this then
    /// never returns. A run that fails because of that cleanup (a worker writing into the
    /// frames folder it renamed away) must not end first, with an error line and exit 1
    /// and the folder half removed.
    static func settle() {
        cleanup.lock()
        cleanup.unlock()
    }

    /// The thread that takes the ending signals: the temporaries are removed and the
    /// process exits with 128 + the signal (130, 143, 129 for SIGINT, SIGTERM, SIGHUP), or
    /// with 0 where the output was already in place (a signal while the previous frames
    /// folder is being removed).
    private static func waitForEndingSignal(_ taken: [Int32]) {
        var ending = EndingSignals.set(of: taken)
        var number: Int32 = 0
        while sigwait(&ending, &number) != 0 {}
        cleanup.lock()
        let committed = TemporaryFiles.removeAll()
        _exit(committed ? 0 : 128 + number)
    }

    #if canImport(Glibc) || canImport(Darwin)
    private static func installCrashHandlers() {
        TemporaryFiles.prepareForCrashCleanup()
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS] {
            var action = SignalAction()
            var previous = SignalAction()
            action.handler = { number, info, context in
                TemporaryFiles.removeAllFromSignalHandler()
                SignalCleanup.forward(number, info, context)
            }
            action.sa_flags = Int32(SA_SIGINFO | SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            if sigaction(signalNumber, &action, &previous) == 0 {
                previousActions[Int(signalNumber)] = previous
            }
        }
    }

    /// The crash handlers that were installed before, by signal number.
    nonisolated(unsafe) private static var previousActions = [SignalAction](repeating: SignalAction(), count: 65)

    /// Hands a crash signal to the previous handler, or re-raises it with the default action.
    private static func forward(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        var previous = previousActions[Int(number)]
        if previous.sa_flags & Int32(SA_SIGINFO) != 0, let handler = previous.handler {
            sigaction(number, &previous, nil)
            handler(number, info, context)
            return
        }
        signal(number, SIG_DFL)
        raise(number)
    }
    #endif
}
