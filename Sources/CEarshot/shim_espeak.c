#include "CEarshot.h"
