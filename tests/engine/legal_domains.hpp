// The domain entries of `legal` written out, as docs/protocol.md ("Legal entries" of Christmas
// Penguins and Unterm Baum) tells a client to: for tests that compare them with game::commands()
// or try every command they stand for. Independent of the engine's own code.
#pragma once

#include <algorithm>
#include <map>
#include <vector>

#include "tinsel/engine/game.hpp"

namespace legal_domains {

using json = nlohmann::json;

// SLOTS: indices in ascending order, runs of three or more as [first, last].
inline std::vector<int> indices(const json& slots) {
  std::vector<int> out;
  for (const auto& x : slots) {
    if (x.is_array())
      for (int i = x[0].get<int>(); i <= x[1].get<int>(); ++i) out.push_back(i);
    else
      out.push_back(x.get<int>());
  }
  return out;
}

// Unterm Baum: a location set {"tree":SLOTS,"fields":[[seat,SLOTS]...],"slots":C} as locations.
inline std::vector<json> locations(const json& set) {
  std::vector<json> out;
  const int c = set["slots"].get<int>();
  for (int i : indices(set["tree"])) out.push_back({{"tree", i}});
  for (const auto& f : set["fields"])
    for (int i : indices(f[1])) out.push_back({{"row", i / c}, {"seat", f[0]}, {"slot", i % c}});
  return out;
}

// The commands a domain entry stands for (Christmas Penguins: green, channels, flights; Unterm
// Baum: reveals; moves too with `moves`), or none for the other domains.
inline std::vector<json> expand_domain(const json& e, bool moves = false) {
  const json& d = e["domain"];
  std::vector<json> out;
  if (e["kind"] == "use_stone") {
    std::map<int, std::vector<json>> by_floe;
    for (const auto& f : d["floes"])
      for (const auto& c : d["cells"])
        if (!(c.size() == 3 && c[2] == f))
          by_floe[f.get<int>()].push_back({{"floe", f}, {"kind", "use_stone"}, {"stone", "green"}, {"to", {c[0], c[1]}}});
    for (const auto& p : d["pairs"])
      by_floe[p[0].get<int>()].push_back({{"floe", p[0]}, {"kind", "use_stone"}, {"stone", "green"}, {"to", {p[1], p[2]}}});
    for (auto& [f, list] : by_floe)
      for (auto& c : list) out.push_back(std::move(c));
  } else if (e["kind"] == "place_channel") {
    for (const auto& ab : d["edges"]) out.push_back({{"a", ab[0]}, {"b", ab[1]}, {"kind", "place_channel"}});
  } else if (e["kind"] == "flee") {
    for (const auto& to : d["to"])
      for (const auto& c : d["colours"]) out.push_back({{"colour", c}, {"kind", "flee"}, {"to", to}});
  } else if (e["kind"] == "reveal") {
    for (auto& l : locations(d["locations"])) out.push_back({{"kind", "reveal"}, {"location", std::move(l)}});
  } else if (e["kind"] == "move" && moves) {
    const auto area = [](const json& l) { return l.contains("tree") ? -1 : l["seat"].get<int>(); };
    const auto to = locations(d["to"]);
    for (const auto& f : locations(d["from"]))
      for (const auto& t : to)
        if (area(f) != area(t)) out.push_back({{"from", f}, {"kind", "move"}, {"to", t}});
  }
  return out;
}

// `legal` with every domain of expand_domain written out in its place, the example before it (a
// concrete entry the domain also stands for) not repeated; the other domains kept.
inline json expand(const json& legal) {
  std::vector<std::vector<json>> lists;
  std::vector<json> covered;
  for (const auto& e : legal) {
    lists.push_back(e.contains("domain") ? expand_domain(e) : std::vector<json>{});
    covered.insert(covered.end(), lists.back().begin(), lists.back().end());
  }
  json out = json::array();
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const json& e = legal[i];
    if (e.contains("domain") && !lists[i].empty())
      for (const auto& c : lists[i]) out.push_back(c);
    else if (e.contains("domain") || std::find(covered.begin(), covered.end(), e) == covered.end())
      out.push_back(e);
  }
  return out;
}

}  // namespace legal_domains
