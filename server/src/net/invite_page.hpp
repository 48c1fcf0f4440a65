#pragma once
// The invite and watch links (/r/CODE, /watch/CODE) and GET /rooms/CODE (docs/protocol.md,
// "Invite links"). The page of an invite link is the browser client's index.html with the room
// written into it: Open Graph and Twitter card tags, so that a link shared in a messaging app shows
// who invites whom to what, and the room's public summary as JSON for the page itself, so that it
// needs no extra request. Every lookup of a code that names no room counts against the address
// like a join_room miss: the page and /rooms/ are no better for guessing codes than join_room.
#include <optional>
#include <string>
#include <string_view>

#include "net/http_routes.hpp"

namespace tinsel::server {

// The answer to an invite link or GET /rooms/<code>, or nullopt when the request is neither.
std::optional<http_answer> route_invite(const http_request& req, const http_context& ctx);

// The room code in a path segment, as join_room reads it ("k7m-2qx" is "K7M2QX"), or "" when it
// cannot be a room code.
std::string invite_code(std::string_view segment);
// "de" when Accept-Language prefers German to English, else "en".
std::string_view invite_language(std::string_view accept_language);
// Text for HTML text and quoted attributes: & < > " ' escaped.
std::string html_escape(std::string_view text);
// index.html with the tags of the invite page for `info` (a public summary, or an error object
// of GET /rooms/<code>) in its <head>. `base`: "scheme://host" for absolute URLs ("" for relative
// ones); `watch`: a /watch/ link.
std::string invite_html(std::string_view index_html, const nlohmann::json& info, std::string_view lang,
                        std::string_view base, bool watch);

}  // namespace tinsel::server
