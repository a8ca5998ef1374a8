// gsched tests: the text of a shipped input vector (a file of verif/vectors), found from this
// source file's place in the tree, so the tests run from any directory.
#pragma once
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace gs::test {

inline std::string vector_text(const std::string& name) {
  const std::string here = __FILE__;
  const std::string root = here.substr(0, here.rfind("/verif/unit/"));
  std::ifstream f(root + "/verif/vectors/" + name);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace gs::test
