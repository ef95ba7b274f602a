import CarouselTestSupport
import Testing

/// Tests that build other packages (the examples, a static release, the code of the README
/// and the DocC articles) or score a render with Python take minutes, and a few others
/// render at length; they run when `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it
/// (``SuiteTier``).
enum SlowTests {
    static var enabled: Bool { SuiteTier.everything }
    static let reason: Comment = "builds other packages; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"
    /// The trait of a test that renders at length.
    static var rendersAtLength: ConditionTrait { .enabled(if: SuiteTier.everything, Comment(rawValue: SuiteTier.rendersAtLength)) }
}
