#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
/// The C `struct sigaction` (its name is also the function's).
package typealias SignalAction = Glibc.sigaction
#elseif canImport(Darwin)
/// The C `struct sigaction` (its name is also the function's).
package typealias SignalAction = Darwin.sigaction
#endif

#if canImport(Glibc) || canImport(Darwin)
/// A crash handler's C signature (`sa_sigaction`'s).
package typealias CrashHandler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

/// The two handlers of a `struct sigaction` share a union whose name differs: glibc's
/// `__sigaction_handler`, Darwin's `__sigaction_u`.
extension SignalAction {
    /// The three-argument handler (`sa_sigaction`), used with `SA_SIGINFO`.
    package var handler: CrashHandler? {
        get {
            #if canImport(Glibc)
            __sigaction_handler.sa_sigaction
            #else
            __sigaction_u.__sa_sigaction
            #endif
        }
        set {
            #if canImport(Glibc)
            __sigaction_handler.sa_sigaction = newValue
            #else
            __sigaction_u.__sa_sigaction = newValue
            #endif
        }
    }

    /// The one-argument handler (`sa_handler`), or `SIG_DFL` and `SIG_IGN`, without `SA_SIGINFO`.
    package var plainHandler: (@convention(c) (Int32) -> Void)? {
        get {
            #if canImport(Glibc)
            __sigaction_handler.sa_handler
            #else
            __sigaction_u.__sa_handler
            #endif
        }
        set {
            #if canImport(Glibc)
            __sigaction_handler.sa_handler = newValue
            #else
            __sigaction_u.__sa_handler = newValue
            #endif
        }
    }
}
#endif
