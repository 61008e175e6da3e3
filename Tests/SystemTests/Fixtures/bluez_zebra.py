'''bluez5 mock plus Zebra printer helpers, for nfctap's BlueZ system tests.

Run as `python3 -m dbusmock --template Tests/SystemTests/Fixtures/bluez_zebra.py`. It is
dbusmock's own bluez5 template (adapters, devices, Pair, Connect, discovery) with a few more
org.bluez.Mock methods:

- AddZebraLEPrinter(adapter, address, name, mtu): an LE printer with the Zebra parser service
  (38EB4A80…; 4A82 written with WriteValue, 4A81 notifying) and Device Information (180A).
  Connect resolves services shortly after it returns (ServicesResolved via PropertiesChanged).
- QueueReply(address, chunks): after the next write, 4A81 emits each chunk as a Value change.
- AddDeviceOnDiscovery(adapter, address, name): the device appears after StartDiscovery.
- FailPairing(adapter, address, error_name, message): Pair raises that error.
- PairViaAgent(adapter, address, request): Pair asks the registered agent (RequestConfirmation
  or RequestPinCode), as bluetoothd does, and fails with AuthenticationRejected if it refuses.
- LockAdapterPower(adapter): the adapter is off and setting Powered fails (rfkill).
'''

import dbus
from gi.repository import GLib

from dbusmock import mockobject
from dbusmock.templates import bluez5
from dbusmock.templates.bluez5 import *  # noqa: F401,F403 (template methods and constants)

BUS_NAME = bluez5.BUS_NAME
MAIN_OBJ = bluez5.MAIN_OBJ
SYSTEM_BUS = bluez5.SYSTEM_BUS
IS_OBJECT_MANAGER = bluez5.IS_OBJECT_MANAGER

MOCK = bluez5.BLUEZ_MOCK_IFACE
DEVICE = bluez5.DEVICE_IFACE
ADAPTER = bluez5.ADAPTER_IFACE
AGENT_MANAGER = bluez5.AGENT_MANAGER_IFACE
GATT_SERVICE = 'org.bluez.GattService1'
GATT_CHAR = 'org.bluez.GattCharacteristic1'
OM = 'org.freedesktop.DBus.ObjectManager'

PARSER = '38eb4a80-c570-11e3-9507-0002a5d5c51b'
FROM_PRINTER = '38eb4a81-c570-11e3-9507-0002a5d5c51b'
TO_PRINTER = '38eb4a82-c570-11e3-9507-0002a5d5c51b'


def _base(uuid16):
    return f'0000{uuid16}-0000-1000-8000-00805f9b34fb'


def _device_path(adapter, address):
    return f'/org/bluez/{adapter}/dev_' + address.replace(':', '_').upper()


@dbus.service.method(AGENT_MANAGER, in_signature='os', out_signature='', sender_keyword='sender')
def RegisterAgentKeepingOwner(manager, agent_path, capability, sender=None):
    '''RegisterAgent that also remembers which connection owns the agent (to call it back).'''
    bluez5.RegisterAgent(manager, agent_path, capability)
    manager.agent_owner = sender


_template_connect = bluez5.Connect
_template_disconnect = bluez5.Disconnect


def _connect_updating_property(device):
    '''bluez5's Connect, but the Connected property follows (as with bluetoothd).'''
    _template_connect(device)
    device.props[DEVICE]['Connected'] = dbus.Boolean(True, variant_level=1)


def _disconnect_updating_property(device):
    _template_disconnect(device)
    device.props[DEVICE]['Connected'] = dbus.Boolean(False, variant_level=1)


def load(mock, parameters):
    # AddDevice looks these names up in bluez5's module when it runs.
    bluez5.Connect = _connect_updating_property
    bluez5.Disconnect = _disconnect_updating_property
    bluez5.load(mock, parameters)
    manager = mockobject.objects['/org/bluez']
    manager.agent_owner = None
    manager.methods[AGENT_MANAGER]['RegisterAgent'] = ('os', '', '', RegisterAgentKeepingOwner)


def _emit_added(mock, path):
    obj = mockobject.objects[path]
    mock.EmitSignal(OM, 'InterfacesAdded', 'oa{sa{sv}}', [dbus.ObjectPath(path), obj.props])


def _changed(obj, iface, props):
    for k, v in props.items():
        obj.props[iface][k] = v
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [iface, props, dbus.Array([], signature='s')])


@dbus.service.method(MOCK, in_signature='sssq', out_signature='s')
def AddZebraLEPrinter(mock, adapter, address, name, mtu):
    path = bluez5.AddDevice(mock, adapter, address, name)
    device = mockobject.objects[path]
    device.props[DEVICE]['AddressType'] = dbus.String('random', variant_level=1)

    def connect(dev):
        _connect_updating_property(dev)
        # GATT discovery finishes a moment after Connect returns, as with bluetoothd.
        GLib.timeout_add(30, lambda: _changed(dev, DEVICE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)}) and False)
    device.AddMethod(DEVICE, 'Connect', '', '', connect)

    def add_service(handle, uuid):
        spath = f'{path}/service{handle:04x}'
        mock.AddObject(spath, GATT_SERVICE, {
            'UUID': dbus.String(uuid, variant_level=1),
            'Primary': dbus.Boolean(True, variant_level=1),
            'Device': dbus.ObjectPath(path, variant_level=1),
        }, [])
        _emit_added(mock, spath)
        return spath

    def add_char(spath, handle, uuid, flags, value, methods):
        cpath = f'{spath}/char{handle:04x}'
        mock.AddObject(cpath, GATT_CHAR, {
            'UUID': dbus.String(uuid, variant_level=1),
            'Service': dbus.ObjectPath(spath, variant_level=1),
            'Flags': dbus.Array(flags, signature='s', variant_level=1),
            'Value': dbus.Array(value, signature='y', variant_level=1),
            'Notifying': dbus.Boolean(False, variant_level=1),
            'MTU': dbus.UInt16(mtu, variant_level=1),
        }, methods)
        _emit_added(mock, cpath)
        return mockobject.objects[cpath]

    read_value = ('ReadValue', 'a{sv}', 'ay', 'ret = self.props["org.bluez.GattCharacteristic1"]["Value"]')
    info = add_service(0x10, _base('180a'))
    for handle, uuid, text in [(0x11, '2a24', 'ZD410-203dpi ZPL'), (0x13, '2a25', name),
                               (0x15, '2a26', 'V84.20.18Z'), (0x17, '2a29', 'Zebra Technologies')]:
        add_char(info, handle, _base(uuid), ['read'], [dbus.Byte(b) for b in text.encode()], [read_value])

    parser = add_service(0x28, PARSER)
    notify = add_char(parser, 0x29, FROM_PRINTER, ['notify', 'indicate'], [], [])
    notify.pending_reply = []

    def start_notify(ch):
        _changed(ch, GATT_CHAR, {'Notifying': dbus.Boolean(True, variant_level=1)})

    def stop_notify(ch):
        _changed(ch, GATT_CHAR, {'Notifying': dbus.Boolean(False, variant_level=1)})
    notify.AddMethod(GATT_CHAR, 'StartNotify', '', '', start_notify)
    notify.AddMethod(GATT_CHAR, 'StopNotify', '', '', stop_notify)

    def write_value(ch, value, options):
        if not notify.pending_reply or not notify.props[GATT_CHAR]['Notifying']:
            return
        chunks, notify.pending_reply = notify.pending_reply, []

        def indicate():
            for c in chunks:
                _changed(notify, GATT_CHAR, {'Value': dbus.Array(c, signature='y', variant_level=1)})
            return False
        GLib.idle_add(indicate)
    write = add_char(parser, 0x2b, TO_PRINTER, ['write', 'write-without-response'], [], [])
    write.AddMethod(GATT_CHAR, 'WriteValue', 'aya{sv}', '', write_value)
    return path


@dbus.service.method(MOCK, in_signature='saay', out_signature='')
def QueueReply(mock, address, chunks):
    for path, obj in mockobject.objects.items():
        if '/dev_' + address.replace(':', '_').upper() in path and hasattr(obj, 'pending_reply'):
            obj.pending_reply = [[dbus.Byte(b) for b in c] for c in chunks]
            return
    raise dbus.exceptions.DBusException('no LE printer ' + address, name=MOCK + '.NoSuchDevice')


@dbus.service.method(MOCK, in_signature='sss', out_signature='')
def AddDeviceOnDiscovery(mock, adapter, address, name):
    adapter_obj = mockobject.objects['/org/bluez/' + adapter]

    def start(ad):
        bluez5.StartDiscovery(ad)
        GLib.timeout_add(100, lambda: bluez5.AddDevice(mock, adapter, address, name) and False)
    adapter_obj.AddMethod(ADAPTER, 'StartDiscovery', '', '', start)


@dbus.service.method(MOCK, in_signature='ssss', out_signature='')
def FailPairing(_mock, adapter, address, error_name, message):
    device = mockobject.objects[_device_path(adapter, address)]

    def pair(_dev):
        raise dbus.exceptions.DBusException(message, name=error_name)
    device.AddMethod(DEVICE, 'Pair', '', '', pair)


@dbus.service.method(MOCK, in_signature='sss', out_signature='')
def PairViaAgent(_mock, adapter, address, request):
    device = mockobject.objects[_device_path(adapter, address)]

    def pair(dev):
        manager = mockobject.objects['/org/bluez']
        if manager.default_agent is None or manager.agent_owner is None:
            raise dbus.exceptions.DBusException('no agent', name='org.bluez.Error.AuthenticationFailed')
        agent = dev.connection.get_object(manager.agent_owner, manager.default_agent, introspect=False)
        try:
            if request == 'RequestConfirmation':
                agent.RequestConfirmation(dbus.ObjectPath(dev.path), dbus.UInt32(123456), dbus_interface='org.bluez.Agent1')
            else:
                dev.received_pin = str(agent.RequestPinCode(dbus.ObjectPath(dev.path), dbus_interface='org.bluez.Agent1'))
        except dbus.exceptions.DBusException as e:
            raise dbus.exceptions.DBusException('agent refused: ' + str(e.get_dbus_name()),
                                                name='org.bluez.Error.AuthenticationRejected')
        bluez5.PairDevice(dev, adapter, address, bluez5.MOCK_PHONE_CLASS)
    device.AddMethod(DEVICE, 'Pair', '', '', pair)


@dbus.service.method(MOCK, in_signature='s', out_signature='')
def LockAdapterPower(_mock, adapter):
    adapter_obj = mockobject.objects['/org/bluez/' + adapter]
    adapter_obj.props[ADAPTER]['Powered'] = dbus.Boolean(False, variant_level=1)

    def refuse(_obj, _iface, name, _value):
        raise dbus.exceptions.DBusException(f'{name}: Blocked through rfkill', name='org.bluez.Error.Failed')
    adapter_obj.AddMethod(dbus.PROPERTIES_IFACE, 'Set', 'ssv', '', refuse)
