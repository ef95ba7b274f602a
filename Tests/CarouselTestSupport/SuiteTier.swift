import Foundation

/// The suite in two tiers. `swift test` runs the quick one, a developer's loop of well
/// under a minute once built; with `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it, it runs
/// everything: the tests that build other packages or score a render with Python, and
/// those that render at length (seconds each in a debug build).
public enum SuiteTier {
    /// Whether the whole suite runs.
    public static var everything: Bool { ProcessInfo.processInfo.environment["CAROUSEL_SLOW_TESTS"] == "1" }
    /// Why a test that renders at length is skipped in the quick run.
    public static let rendersAtLength = "renders at length; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"
    /// Why a test that works through a limit of a million steps is skipped in the quick run.
    public static let millionSteps = "expands a million script steps; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"
}
