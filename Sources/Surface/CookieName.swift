/// Cookie names Fieldbook sets. The pages set the session cookie at sign-in; the JSON API's reads accept it too, so
/// scripts on the pages can read /api/v1 as the signed-in user.
public enum CookieName {
    public static let session = "fieldbook_session"
    public static let anonymousCSRF = "fieldbook_csrf"
    public static let flash = "fieldbook_flash"
}
