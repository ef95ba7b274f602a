/// How an image fills its `itemWidth x H` item.
public enum FitMode: String, CaseIterable, Codable, Sendable {
    /// Aspect fill: scaled to cover the item, centred, the overflow cropped.
    case fill
    /// Aspect fit: scaled to fit inside the item, centred, the rest background.
    case fit
    /// Scaled to the item's size, aspect ratio ignored.
    case stretch
}
