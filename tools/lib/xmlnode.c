#include "xmlnode.h"

xmlNodePtr qb_xml_detach(xmlNodePtr n)
{
	xmlNodePtr h = xmlNewDocNode(n->doc, NULL, n->name, NULL), c;
	xmlAttrPtr a;

	if (!h)
		return NULL;
	h->line = n->line;
	h->children = n->children;
	h->last = n->last;
	h->properties = n->properties;
	h->nsDef = n->nsDef;
	for (c = h->children; c; c = c->next)
		c->parent = h;
	for (a = h->properties; a; a = a->next)
		a->parent = h;
	n->children = n->last = NULL;
	n->properties = NULL;
	n->nsDef = NULL;
	return h;
}
