import CarouselTestSupport
import Testing

/// Tests that render at length (seconds each in a debug build) run when
/// `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it (``SuiteTier``).
enum SlowTests {
    /// The trait of a test that renders at length.
    static var rendersAtLength: ConditionTrait { .enabled(if: SuiteTier.everything, Comment(rawValue: SuiteTier.rendersAtLength)) }
}
