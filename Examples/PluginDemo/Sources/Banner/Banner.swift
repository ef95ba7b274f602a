/// The banner this package documents; its media in `Docs/` are rendered by carousel's plugin.
public enum Banner {
    /// The options the docs media use, as `swift package carousel render` takes them.
    public static let renderArguments = ["render", "--size", "375x211", "--item-width", "343", "--spacing", "8",
                                         "-o", "Docs/banner.gif"]
}
