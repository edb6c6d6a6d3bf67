import DestinationsModel
import FeedFormat
import Testing

/// A warned post's words stay out of everything until the person reveals it: its title
/// is its warning, and a filter finds neither its text nor its alt text (issue 45).
@Suite struct HiddenPostTests {
    static func post(_ id: String, title: String, warning: String? = nil, alt: String? = nil) -> FeedPost {
        FeedPost(statusID: id, title: title, region: "Ana", likes: 1,
                 pictures: [FeedPicture(previewURL: "https://m.example/\(id).jpg", url: "https://m.example/\(id)-o.jpg", altText: alt)],
                 warning: warning)
    }

    let posts = [post("1", title: "Harbour at dusk"), post("2", title: "Cliff edge photo", warning: "Heights", alt: "A drop of 300 m"),
                 post("3", title: "Mountain hut", warning: "sensitive")]

    func ids(_ filter: String, in catalogue: Catalogue, engine: PostQueryEngine) -> [Int] {
        engine.run(PostQuery(filter: filter), over: catalogue, postCount: catalogue.baseCount) ?? []
    }

    @Test func aHiddenPostsWordsAreFoundOnlyOnceRevealed() {
        var catalogue = Catalogue(feedNamed: "m.example")
        catalogue.appendFeedPosts(posts)
        let engine = PostQueryEngine()
        #expect(catalogue.post(1).title == "Heights" && catalogue.post(1).isHidden)
        #expect(catalogue.post(2).title == "sensitive")
        #expect(ids("cliff", in: catalogue, engine: engine) == [], "hidden text is not in the index")
        #expect(ids("heights", in: catalogue, engine: engine) == [2], "the warning is what shows, and what is found")
        catalogue.setHidden(false, ofPost: 1)
        #expect(catalogue.post(1).title == "Cliff edge photo" && !catalogue.post(1).isHidden)
        #expect(ids("cliff", in: catalogue, engine: engine) == [2], "the same engine builds its index again")
        catalogue.setHidden(true, ofPost: 1)
        #expect(ids("cliff", in: catalogue, engine: engine) == [])
        catalogue.setHidden(false, ofPost: 0)
        #expect(catalogue.post(0).title == "Harbour at dusk", "a post without a warning has nothing to hide or show")
    }

    @Test func showSensitiveStartsEveryPostRevealed() {
        var catalogue = Catalogue(feedNamed: "m.example", showsSensitive: true)
        catalogue.appendFeedPosts(posts)
        #expect(catalogue.post(1).title == "Cliff edge photo" && catalogue.hasWarning(ofPost: 1) && !catalogue.isHidden(ofPost: 1))
        catalogue.setHidden(true, ofPost: 1)
        #expect(catalogue.post(1).title == "Heights")
    }

    /// `X`: every warned post shown, and the posts of later pages too; then all hidden again.
    @Test func showingAllFollowsIntoLaterPages() {
        var catalogue = Catalogue(feedNamed: "m.example")
        catalogue.appendFeedPosts(posts)
        catalogue.setHidden(false, ofPost: 1)
        #expect(catalogue.setShowsSensitive(true) == [2], "post 1 was shown already")
        #expect(!catalogue.isHidden(ofPost: 1) && !catalogue.isHidden(ofPost: 2))
        let later = posts.map { Self.post($0.statusID + "0", title: $0.title, warning: $0.warning) }
        catalogue.appendFeedPosts(later)
        #expect(!catalogue.isHidden(ofPost: 4) && catalogue.hasWarning(ofPost: 4), "a later page's warned post arrives shown")
        #expect(catalogue.setShowsSensitive(false) == [1, 2, 4, 5])
        #expect(catalogue.post(4).title == "Heights")
    }

    @Test func aFeedPostCarriesItsPictures() {
        var catalogue = Catalogue(feedNamed: "m.example")
        let gallery = FeedPost(statusID: "9", title: "Two huts", region: "Bo", likes: 0,
                               pictures: [FeedPicture(previewURL: "https://m.example/a.jpg", url: "https://m.example/A.jpg"),
                                          FeedPicture(previewURL: "https://m.example/b.jpg", url: "https://m.example/B.jpg", isAnimated: true)],
                               boostedBy: "Cy")
        catalogue.appendFeedPosts([gallery])
        let post = catalogue.post(0)
        #expect(post.asset.path == "https://m.example/a.jpg" && post.original?.path == "https://m.example/A.jpg")
        #expect(post.pictures.count == 2 && post.pictures[1].isAnimated && post.boostedBy == "Cy")
        #expect(catalogue.pictureCount(ofPost: 0) == 2)
    }
}
