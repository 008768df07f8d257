#pragma once
// What the end-to-end core tests share: a file's bytes, and what a finished program said.

#include <QString>
#include <fstream>
#include <sstream>
#include <string>

inline std::string slurp(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Run {
    int code = -1;  // -1 when it crashed or was killed
    QString out, err;
};
