/* libxml2 tree helpers shared by the streaming readers. */
#ifndef QB_XMLNODE_H
#define QB_XMLNODE_H

#include <libxml/tree.h>

/* Moves the attributes, namespace declarations and children of N (an
 * element of a streaming reader's document) into a new element of the
 * same name and line, in N's document but linked nowhere, and leaves N
 * empty: the reader then frees the emptied N as it moves on, while the
 * new element stays until xmlFreeNode, on the reader's thread when its
 * strings may be in the parser's dictionary. Returns NULL when out of
 * memory, with N as it was. */
xmlNodePtr qb_xml_detach(xmlNodePtr n);

#endif
