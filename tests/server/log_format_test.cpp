// --log-format json: how a log message becomes the fields of one JSON object.
#include <catch2/catch.hpp>

#include "ops/log_format.hpp"

using tinsel::server::log_fields;
using nlohmann::json;

TEST_CASE("a log message splits into its text and typed key=value fields", "[logs]") {
  CHECK(log_fields("room created room=K7TQ game=happy_holidays rooms=3") ==
        json({{"message", "room created"}, {"room", "K7TQ"}, {"game", "happy_holidays"}, {"rooms", 3}}));
  CHECK(log_fields("hello conn=12 player=p_ab resumed=false") ==
        json({{"message", "hello"}, {"conn", 12}, {"player", "p_ab"}, {"resumed", false}}));
  CHECK(log_fields("game finished room=K7TQ game=unterm_baum winners=[\"p1\",\"p2\"]")["winners"] == json({"p1", "p2"}));
  CHECK(log_fields("stopped") == json({{"message", "stopped"}}));
  CHECK(log_fields("") == json({{"message", ""}}));
}

TEST_CASE("a log value runs up to the next key=value, keeps spaces and loses its quotes", "[logs]") {
  const auto f = log_fields("accept failed error=Too many open files failures=7 retry_in_ms=1000");
  CHECK(f["message"] == "accept failed");
  CHECK(f["error"] == "Too many open files");
  CHECK(f["failures"] == 7);
  CHECK(f["retry_in_ms"] == 1000);
  CHECK(log_fields("closing conn=3 code=4008 reason=\"too slow\"")["reason"] == "too slow");
}

TEST_CASE("log values that only look like numbers stay strings, and fields cannot overwrite time, level or message",
          "[logs]") {
  const auto f = log_fields("x room=007 n=-4 big=123456789012345678901 v=1.5 time=now level=9 message=hi");
  CHECK(f["room"] == "007");  // a leading zero: a code, not a number
  CHECK(f["n"] == -4);
  CHECK(f["big"] == "123456789012345678901");
  CHECK(f["v"] == "1.5");
  CHECK(f["time_"] == "now");
  CHECK(f["level_"] == 9);
  CHECK(f["message_"] == "hi");
  CHECK(f["message"] == "x");
  // Upper-case or punctuated words with "=" are text, not keys.
  CHECK(log_fields("GET /a=b X=1")["message"] == "GET /a=b X=1");
}
