#ifndef CEARSHOT_H
#define CEARSHOT_H
#endif
